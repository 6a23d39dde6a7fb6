/**
 * The files Zulip clients fetch from /static: the Unicode emoji data behind
 * server_emoji_data_url, the :zulip: emoji, and the organization icon.
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
