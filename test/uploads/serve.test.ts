import { parse as parseDisposition } from 'content-disposition';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueScheduledMessages } from '../../server/scheduled/scheduled-messages.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import type { Account, FixtureName } from '../helpers/server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../messages/send-support.js';
import { animatedGif, png, uploadOk } from './support.js';

let t: TestServer;
const clock = new FakeClock();
let general: number;
let secret: number;
let vault: number;
let late: Account;

beforeAll(async () => {
  t = await startTestServer({ now: clock.now, scheduledDelivery: false });
  const a = t.accounts;
  late = await quickMember(t, 'Late Joiner');
  general = createChannel(t, { name: 'general', subscribers: [a.owner.id, a.member.id] });
  secret = createChannel(t, {
    name: 'secret',
    private: true,
    historyPublic: true,
    subscribers: [a.owner.id, a.member.id, a.guest.id],
  });
  vault = createChannel(t, { name: 'vault', private: true, subscribers: [a.owner.id] });
});
afterAll(() => t.close());

type Who = FixtureName | Account;

/** [type, filename] of a response's Content-Disposition. */
function disposition(res: Response): [string, string | undefined] {
  const parsed = parseDisposition(res.headers.get('content-disposition') ?? '');
  return [parsed.type, parsed.parameters.filename];
}
/** The status of fetching `url` as `who`; the body is read so no stream is left open. */
async function status(who: Who, url: string): Promise<number> {
  const res = await t.as(who).fetch(url);
  await res.arrayBuffer();
  return res.status;
}

/** The owner uploads a text file; returns its URL. */
const ownerFile = async (name = 'doc.txt') =>
  (await uploadOk(t.as('owner'), `contents of ${name}`, name, 'text/plain')).url;

describe('who may fetch /user_uploads/...', () => {
  it('the uploader, and nobody else while no message links it', async () => {
    const url = await ownerFile();
    expect(await status('owner', url)).toBe(200);
    for (const who of ['admin', 'member', 'guest', 'bot'] as const) {
      const res = await t.as(who).fetch(url);
      expect(res.status).toBe(403);
      expect(await res.text()).toBe('<p>You are not authorized to view this file.</p>');
    }
  });

  it('404s what does not exist, for everyone', async () => {
    const res = await t.as('owner').fetch('/user_uploads/1/ab/nosuchthing/doc.txt');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('<p>File not found.</p>');
    expect(await status('owner', '/user_uploads/2/ab/nosuchthing/doc.txt')).toBe(404);
    expect(await status('owner', '/user_uploads/1/..%2f..%2fhearth.sqlite')).toBe(404);
    expect(await status('owner', '/user_uploads/1/../../hearth.sqlite')).toBe(404);
  });

  it('needs credentials', async () => {
    const url = await ownerFile();
    const res = await t.anonymous().fetch(url);
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('UNAUTHORIZED');
  });

  it('a public channel message: every non-guest, and guests only if subscribed', async () => {
    const url = await ownerFile('public.txt');
    await sendToChannel(t, 'owner', general, 'files', `[public.txt](${url})`);
    for (const who of ['owner', 'admin', 'moderator', 'member', 'bot', late] as const) {
      expect(await status(who, url)).toBe(200);
    }
    expect(await status('guest', url)).toBe(403);
  });

  it('a private channel with shared history: its subscribers (guests too), not others', async () => {
    const url = await ownerFile('secret.txt');
    await sendToChannel(t, 'owner', secret, 'files', `[secret.txt](${url})`);
    expect(await status('member', url)).toBe(200);
    expect(await status('guest', url)).toBe(200);
    expect(await status('admin', url)).toBe(403);
    expect(await status(late, url)).toBe(403);
  });

  it('a private channel without shared history: only those who received the message', async () => {
    const url = await ownerFile('vault.txt');
    await sendToChannel(t, 'owner', vault, 'files', `[vault.txt](${url})`);
    expect(await status('owner', url)).toBe(200);
    // Joining later does not reveal what was sent before.
    const { ctx } = t.server;
    ctx.db
      .prepare('INSERT INTO subscriptions (stream_id, user_id, color) VALUES (?, ?, ?)')
      .run(vault, t.accounts.member.id, '#000000');
    expect(await status('member', url)).toBe(403);
  });

  it('a direct message: its participants only', async () => {
    const url = await ownerFile('dm.txt');
    await sendDirect(t, 'owner', [t.accounts.member.id], `[dm.txt](${url})`);
    expect(await status('member', url)).toBe(200);
    expect(await status('admin', url)).toBe(403);
    expect(await status('guest', url)).toBe(403);
  });

  it('deleting the only message linking a file takes the access away again', async () => {
    const url = await ownerFile('retracted.txt');
    const id = await sendDirect(t, 'owner', [t.accounts.member.id], `[retracted.txt](${url})`);
    expect(await status('member', url)).toBe(200);
    expect((await t.as('owner').delete(`/messages/${id}`)).status).toBe(200);
    expect(await status('member', url)).toBe(403);
    expect(await status('owner', url)).toBe(200);
  });

  it('someone who can see a file may share it on; someone who cannot, may not', async () => {
    const url = await ownerFile('reshare.txt');
    await sendDirect(t, 'owner', [t.accounts.member.id], `[reshare.txt](${url})`);
    // The guest cannot see it: linking it to the admin does not claim it.
    await sendDirect(t, 'guest', [t.accounts.admin.id], `[reshare.txt](${url})`);
    expect(await status('admin', url)).toBe(403);
    // The member can: sharing it with the guest gives the guest access.
    await sendDirect(t, 'member', [t.accounts.guest.id], `look: [reshare.txt](${url})`);
    expect(await status('guest', url)).toBe(200);
    expect(await status('admin', url)).toBe(403);
  });
});

describe('scheduled messages', () => {
  it('claim their uploads when they are sent', async () => {
    const url = await ownerFile('later.txt');
    const res = await t.as('owner').post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'later',
      content: `[later.txt](${url})`,
      scheduled_delivery_timestamp: Math.floor(clock.ms / 1000) + 3600,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await status('member', url)).toBe(403);
    clock.advance(3601);
    expect(deliverDueScheduledMessages(t.server.ctx)).toEqual({ delivered: 1, failed: 0 });
    expect(await status('member', url)).toBe(200);
  });
});

describe('how files are served', () => {
  it('safe types inline with their type, nosniff and a sandbox', async () => {
    const { url } = await uploadOk(t.as('owner'), await png(3, 2), 'pic.png', 'image/png');
    const res = await t.as('owner').fetch(url);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(disposition(res)).toEqual(['inline', 'pic.png']);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('cache-control')).toContain('private');
    const text = await uploadOk(t.as('owner'), 'plain', 'a.txt', 'text/plain');
    const served = await t.as('owner').fetch(text.url);
    expect(disposition(served)).toEqual(['inline', 'a.txt']);
  });

  it('plain text gets a charset when it is UTF-8', async () => {
    const utf8 = await uploadOk(t.as('owner'), 'Grüße', 'utf8.txt', 'text/plain');
    const res = await t.as('owner').fetch(utf8.url);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('Grüße');
    const latin1 = Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65]);
    const other = await uploadOk(t.as('owner'), latin1, 'latin1.txt', 'text/plain');
    const served = await t.as('owner').fetch(other.url);
    expect(served.headers.get('content-type')).toBe('text/plain');
    expect(disposition(served)).toEqual(['inline', 'latin1.txt']);
  });

  const dangerous: Array<[string, string, string]> = [
    ['page.html', 'text/html', '<script>alert(document.cookie)</script>'],
    ['image.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['code.js', 'application/javascript', 'alert(1)'],
    ['module.js', 'text/javascript', 'alert(1)'],
    ['guessed.js', '', 'alert(1)'],
    ['style.css', 'text/css', 'body { background: url(https://example.com/) }'],
    ['page.xhtml', 'application/xhtml+xml', '<html/>'],
    ['noname', '', '<html><script>alert(1)</script></html>'],
  ];
  for (const [name, type, body] of dangerous) {
    it(`${name} (${type || 'no type'}) is an inert download, never a page or script`, async () => {
      const { url } = await uploadOk(t.as('owner'), body, name, type);
      const res = await t.as('owner').fetch(url);
      expect(res.status).toBe(200);
      expect(disposition(res)).toEqual(['attachment', name]);
      // A <script src> or <link rel=stylesheet> would ignore the disposition;
      // with nosniff, browsers refuse to run this type as either.
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain('sandbox');
      expect(await res.text()).toBe(body);
    });
  }

  it('types come from the name when the client claims none', async () => {
    const { url } = await uploadOk(t.as('owner'), 'x', 'report.pdf', 'application/octet-stream');
    const res = await t.as('owner').fetch(url);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(disposition(res)).toEqual(['inline', 'report.pdf']);
  });

  it('answers byte ranges, as media players ask for them', async () => {
    const { url } = await uploadOk(t.as('owner'), 'abcdefghij', 'clip.mp4', 'video/mp4');
    const get = (range?: string) => t.as('owner').fetch(url, { headers: range ? { range } : {} });
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe('10');
    const cases: Array<[string, string, string]> = [
      ['bytes=2-5', 'cdef', 'bytes 2-5/10'],
      ['bytes=8-', 'ij', 'bytes 8-9/10'],
      ['bytes=-3', 'hij', 'bytes 7-9/10'],
      ['bytes=5-100', 'fghij', 'bytes 5-9/10'],
    ];
    for (const [range, body, contentRange] of cases) {
      const res = await get(range);
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range')).toBe(contentRange);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toBe(body);
    }
    const beyond = await get('bytes=10-20');
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */10');
    // Several ranges, or nonsense: the whole file.
    for (const range of ['bytes=0-1,4-5', 'pages=1-2', 'bytes=x-y']) {
      const res = await get(range);
      expect(res.status, range).toBe(200);
      expect(await res.text()).toBe('abcdefghij');
    }
    // Access is checked before any range is read.
    expect((await t.as('member').fetch(url, { headers: { range: 'bytes=0-1' } })).status).toBe(403);
  });

  it('/user_uploads/download/... always downloads, with the same access rules', async () => {
    const { url } = await uploadOk(t.as('owner'), await png(3, 2), 'dl.png', 'image/png');
    const download = url.replace('/user_uploads/', '/user_uploads/download/');
    const res = await t.as('owner').fetch(download);
    expect(res.status).toBe(200);
    expect(disposition(res)).toEqual(['attachment', 'dl.png']);
    expect(await status('member', download)).toBe(403);
  });
});

describe('temporary URLs (GET /api/v1/user_uploads/{realm_id_str}/{filename})', () => {
  it('serve the file without credentials for a minute', async () => {
    const url = await ownerFile('temp.txt');
    const res = await t.as('owner').get(url.replace('/user_uploads/', '/user_uploads/'));
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^\/user_uploads\/temporary\/[^/]+\/temp\.txt$/);
    const first = await t.anonymous().fetch(res.body.url);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('contents of temp.txt');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');

    clock.advance(61);
    const expired = await t.anonymous().fetch(res.body.url);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid token' });
  });

  it('refuse forged tokens and other file names', async () => {
    const url = await ownerFile('forge.txt');
    const { body } = await t.as('owner').get(url);
    const [, , , token] = body.url.split('/');
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const bad = await t.anonymous().fetch(`/user_uploads/temporary/${tampered}/forge.txt`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).msg).toBe('Invalid token');
    const garbage = await t.anonymous().fetch('/user_uploads/temporary/nonsense/forge.txt');
    expect((await garbage.json()).msg).toBe('Invalid token');
    const renamed = await t.anonymous().fetch(`/user_uploads/temporary/${token}/other.txt`);
    expect(renamed.status).toBe(400);
    expect((await renamed.json()).msg).toBe('Invalid filename');
  });

  it('are only given to those who may see the file, as JSON errors', async () => {
    const url = await ownerFile('private.txt');
    const denied = await t.as('member').get(url);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      result: 'error',
      msg: 'You are not authorized to view this file.',
    });
    const missing = await t.as('member').get('/user_uploads/1/aa/nothing/here.txt');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ result: 'error', msg: 'File not found.' });
  });

  it('stop working once the file is deleted', async () => {
    const url = await ownerFile('gone.txt');
    const { body } = await t.as('owner').get(url);
    const id = (await t.as('owner').get('/attachments')).body.attachments.find(
      (a: { name: string }) => a.name === 'gone.txt',
    ).id;
    await t.as('owner').delete(`/attachments/${id}`);
    expect((await t.anonymous().fetch(body.url)).status).toBe(404);
  });
});

describe('thumbnails', () => {
  it('are made at upload and served in Zulip’s formats to those who may see the image', async () => {
    const { url } = await uploadOk(t.as('owner'), await png(2000, 1000), 'wide.png', 'image/png');
    const thumb = url.replace('/user_uploads/', '/user_uploads/thumbnail/');
    const res = await t.as('owner').fetch(`${thumb}/840x560.webp`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('content-disposition')).toBe('inline');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([840, 420]);
    // A still image has no animated thumbnail: the still one stands in.
    expect((await t.as('owner').fetch(`${thumb}/840x560-anim.webp`)).status).toBe(200);
    expect((await t.as('owner').fetch(`${thumb}/100x100.webp`)).status).toBe(200);
    expect((await t.as('owner').fetch(`${thumb}/not-a-format`)).status).toBe(404);
    expect((await t.as('member').fetch(`${thumb}/840x560.webp`)).status).toBe(403);
  });

  it('animated images get an animated thumbnail too', async () => {
    const { url } = await uploadOk(t.as('owner'), await animatedGif(20, 10), 'a.gif', 'image/gif');
    const thumb = url.replace('/user_uploads/', '/user_uploads/thumbnail/');
    const res = await t.as('owner').fetch(`${thumb}/840x560-anim.webp`);
    expect(res.status).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer()), { animated: true }).metadata();
    expect(meta.pages).toBe(2);
  });

  it('small images are not enlarged', async () => {
    const { url } = await uploadOk(t.as('owner'), await png(30, 20), 'small.png', 'image/png');
    const res = await t
      .as('owner')
      .fetch(`${url.replace('/user_uploads/', '/user_uploads/thumbnail/')}/840x560.webp`);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([30, 20]);
  });
});
