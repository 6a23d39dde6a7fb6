/**
 * The files Zulip clients fetch from /static: the Unicode emoji data behind
 * server_emoji_data_url, the :zulip: emoji, the organization icon, and the
 * emoji pictures (Google's sprite sheet, its stylesheet, the picker's
 * categories) that draw emoji without an emoji font.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { imageInfo } from './images.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function registeredUrl(key: string): Promise<string> {
  const res = await t.as('member').post('/register', { fetch_event_types: ['realm'] });
  return res.body[key];
}

describe('server_emoji_data_url', () => {
  it('serves {code_to_names} without credentials, cached, as JSON', async () => {
    const url = await registeredUrl('server_emoji_data_url');
    expect(url).toBe(`${t.url}/static/generated/emoji/emoji_api.json`);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const body = (await res.json()) as { code_to_names: Record<string, string[]> };
    expect(Object.keys(body)).toEqual(['code_to_names']);
    const entries = Object.entries(body.code_to_names);
    expect(entries.length).toBeGreaterThan(1500);
    for (const [code, names] of entries) {
      expect(code).toMatch(/^[0-9a-f]{4,6}(-[0-9a-f]{4,6})*$/);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toMatch(/^[0-9a-z_+-]+$/);
    }
    // Zulip's canonical name first, its aliases after.
    expect(body.code_to_names['1f44d']).toEqual(['thumbs_up', '+1', 'like']);
    expect(body.code_to_names['1f642']).toEqual(['smile', 'slight_smile']);
    expect(body.code_to_names['2764']).toEqual(['heart', 'love', 'love_you']);
    // A name belongs to one code only.
    const allNames = entries.flatMap(([, names]) => names);
    expect(new Set(allNames).size).toBe(allNames.length);
    // :zulip: is not a Unicode emoji.
    expect(allNames).not.toContain('zulip');
  });

  it('names exactly what reactions accept', async () => {
    const body = (await (await fetch(`${t.url}/static/generated/emoji/emoji_api.json`)).json()) as {
      code_to_names: Record<string, string[]>;
    };
    const channel = await t.as('owner').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'emoji data' }],
    });
    expect(channel.status).toBe(200);
    const sent = await t
      .as('owner')
      .post('/messages', { type: 'stream', to: 'emoji data', topic: 'x', content: 'hi' });
    for (const [code, names] of Object.entries(body.code_to_names).slice(0, 40)) {
      for (const name of names) {
        const res = await t.as('owner').post(`/messages/${sent.body.id}/reactions`, {
          emoji_name: name,
          emoji_code: code,
          reaction_type: 'unicode_emoji',
        });
        expect([200, 400], `${name} ${code}`).toContain(res.status);
        if (res.status === 400) expect(res.body.msg).toBe('Reaction already exists.');
      }
    }
  });
});

describe('generated images', () => {
  it('serves the :zulip: emoji Markdown links to', async () => {
    const rendered = await t.as('member').post('/messages/render', { content: ':zulip:' });
    const src = /src="([^"]+)"/.exec(rendered.body.rendered)![1]!;
    const res = await t.anonymous().fetch(src);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await imageInfo(await res.arrayBuffer())).toEqual({
      format: 'png',
      width: 64,
      height: 64,
      pages: 1,
    });
  });

  it('serves realm_icon_url and realm_logo_url', async () => {
    for (const key of ['realm_icon_url', 'realm_logo_url', 'realm_night_logo_url']) {
      const res = await fetch(await registeredUrl(key));
      expect(res.status, key).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(await imageInfo(await res.arrayBuffer())).toMatchObject({ width: 100, height: 100 });
    }
    const settings = await t.anonymous().get('/server_settings');
    expect((await fetch(settings.body.realm_icon)).status).toBe(200);
  });

  it('answers 404 in JSON for other static paths', async () => {
    for (const path of [
      '/static/generated/emoji/images/emoji/unicode/1f600.png',
      '/static/generated/emoji/emoji_api.json/..%2F..%2F',
      '/static/images/logo/other.png',
    ]) {
      const res = await t.anonymous().fetch(path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).result).toBe('error');
    }
  });
});

describe('emoji pictures', () => {
  it('serves the Google sprite sheet, offline, from the package', async () => {
    const res = await t.anonymous().fetch('/static/generated/emoji/sheet-google-32.png');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const info = await imageInfo(await res.arrayBuffer());
    // 62 cells of 32 px pictures with a pixel of border each side.
    expect(info).toMatchObject({ format: 'png', width: 62 * 34, height: 62 * 34 });
  });

  it('places every emoji Markdown renders on the sheet by its class', async () => {
    const res = await t.anonymous().fetch('/static/generated/emoji/google-sprite.css');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/css/);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    const css = await res.text();
    expect(css).toContain('background-image:url(sheet-google-32.png)');
    // The shared rule has no weight: each code's position overrides it.
    expect(css).toMatch(/^:where\(\.emoji\[class\*="emoji-"\]\)\{/m);
    const positions = new Map(
      [...css.matchAll(/^\.emoji-([0-9a-f-]+)\{background-position:([\d.]+)% ([\d.]+)%\}$/gm)].map(
        (m) => [m[1]!, [Number(m[2]), Number(m[3])]],
      ),
    );
    // Cell (12, 61) of 62: (12 * 34 + 1) / (62 * 34 - 32).
    expect(positions.get('1f44d')).toEqual([19.7013, 99.9518]);
    // Skin tones, ZWJ sequences and emoji Zulip's names predate are there too.
    expect(positions.has('1f44d-1f3fd')).toBe(true);
    expect(positions.has('1f469-200d-1f4bb')).toBe(true);
    // Every code the server's Markdown can write has its cell.
    const api = (await (
      await t.anonymous().fetch('/static/generated/emoji/emoji_api.json')
    ).json()) as {
      code_to_names: Record<string, string[]>;
    };
    const missing = Object.keys(api.code_to_names).filter((code) => !positions.has(code));
    expect(missing).toEqual([]);
    for (const [x, y] of positions.values()) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(100);
    }
  });

  it("gives the picker Zulip's categories in order, Unicode's order within, and skin tones", async () => {
    const res = await t.anonymous().fetch('/static/generated/emoji/emoji_picker.json');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      categories: { name: string; emoji: (string | [string, string[]])[] }[];
    };
    expect(body.categories.map((c) => c.name)).toEqual([
      'Smileys & Emotion',
      'People & Body',
      'Animals & Nature',
      'Food & Drink',
      'Activities',
      'Travel & Places',
      'Objects',
      'Symbols',
      'Flags',
    ]);
    const code = (e: string | [string, string[]]) => (typeof e === 'string' ? e : e[0]);
    const smileys = body.categories[0]!.emoji.map(code);
    expect(smileys.slice(0, 3)).toEqual(['1f600', '1f603', '1f604']);
    // Symbols such as ™ and ↔ are in Symbols, not among the faces.
    expect(smileys).not.toContain('2122');
    expect(body.categories[7]!.emoji.map(code)).toEqual(expect.arrayContaining(['2122', '2194']));
    const thumbs = body.categories[1]!.emoji.find((e) => code(e) === '1f44d');
    expect(thumbs).toEqual([
      '1f44d',
      ['1f44d-1f3fb', '1f44d-1f3fc', '1f44d-1f3fd', '1f44d-1f3fe', '1f44d-1f3ff'],
    ]);
    // Only what a reaction or :name: can carry.
    const api = (await (
      await t.anonymous().fetch('/static/generated/emoji/emoji_api.json')
    ).json()) as {
      code_to_names: Record<string, string[]>;
    };
    const all = body.categories.flatMap((c) => c.emoji.map(code));
    expect(all.filter((c) => !(c in api.code_to_names))).toEqual([]);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeGreaterThan(1500);
  });
});

describe('rate limits', () => {
  it('do not count static files against the per-address limit', async () => {
    const limited = await startTestServer({ rateLimit: true });
    try {
      const paths = [
        '/static/generated/emoji/images/emoji/unicode/zulip.png',
        `/user_avatars/${limited.accounts.member.id}.png`,
      ];
      for (let i = 0; i < 120; i++) {
        const res = await limited.anonymous().fetch(paths[i % 2]!);
        expect(res.status, `request ${i}`).toBe(200);
        await res.arrayBuffer();
      }
      // Other unauthenticated endpoints still count.
      let limitedAnswers = 0;
      for (let i = 0; i < 110; i++) {
        const res = await limited.anonymous().get('/server_settings', {}, { skipSchema: true });
        if (res.status === 429) limitedAnswers++;
      }
      expect(limitedAnswers).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
