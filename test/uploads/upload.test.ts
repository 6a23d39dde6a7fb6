import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_SPACE_PER_USER_MIB } from '../../server/shared/limits.js';
import { isEvent, receivers, Watchers } from '../helpers/event-queues.js';
import { quickMember } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pathIdOf, png, upload, uploadOk } from './support.js';

let t: TestServer;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  await watchers.add('member');
  await watchers.add('member:attachments-only', 'member', { event_types: ['attachment'] });
  await watchers.add('owner');
  await watchers.add('guest');
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const member = () => t.as('member');
const filesDir = () => path.join(t.dataDir, 'files');

/** Every regular file under a directory, recursively. */
function allFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => path.join(dir, p))
    .filter((p) => statSync(p).isFile());
}

describe('POST /user_uploads', () => {
  it('stores the file and answers with its URL (uri too) and file name', async () => {
    const res = await upload(member(), 'zulip!', 'zulip.txt', 'text/plain');
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/zulip\.txt$/);
    expect(res.body.uri).toBe(res.body.url);
    expect(res.body.filename).toBe('zulip.txt');
    const served = await member().fetch(res.body.url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('zulip!');
  });

  it('accepts the file under any field name (the Python bindings use its path)', async () => {
    const res = await upload(member(), 'x', 'notes.md', 'text/markdown', '/home/me/notes.md');
    expect(res.status).toBe(200);
    expect(res.body.filename).toBe('notes.md');
  });

  it('tells the owner alone, with the organization total, in an add event', async () => {
    const before = (await member().get('/attachments')).body.upload_space_used as number;
    const { url } = await uploadOk(member(), 'abcdef', 'six.txt', 'text/plain');
    const events = await watchers.take('attachment');
    expect(receivers(events)).toEqual(['member', 'member:attachments-only']);
    const [event] = events.member!;
    expect(event).toMatchObject({
      type: 'attachment',
      op: 'add',
      upload_space_used: before + 6,
      attachment: { name: 'six.txt', path_id: pathIdOf(url), size: 6, messages: [] },
    });
    expect(Object.keys(event.attachment).sort()).toEqual(
      ['create_time', 'id', 'messages', 'name', 'path_id', 'size'].sort(),
    );
  });

  it('refuses a request without a file', async () => {
    const res = await member().post('/user_uploads', { note: 'x' }, { encoding: 'multipart' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'You must specify a file to upload',
    });
    const plain = await member().post('/user_uploads', {});
    expect(plain.body.msg).toBe('You must specify a file to upload');
  });

  it('refuses two files at once, storing neither', async () => {
    const count = allFiles(filesDir()).length;
    const res = await member().post(
      '/user_uploads',
      { a: new File(['1'], 'a.txt'), b: new File(['2'], 'b.txt') },
      { encoding: 'multipart' },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'You may only upload one file at a time',
    });
    expect(allFiles(filesDir()).length).toBe(count);
  });

  it('refuses a file over max_file_upload_size_mib with Zulip’s error', async () => {
    const settings = await t.anonymous().get('/server_settings');
    const limit = (await member().post('/register', { fetch_event_types: ['realm'] })).body
      .max_file_upload_size_mib as number;
    expect(limit).toBe(25);
    expect(settings.status).toBe(200);
    const big = Buffer.alloc(limit * 1024 * 1024 + 1);
    const res = await upload(member(), big, 'big.bin');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Uploaded file is larger than the allowed limit of 25 MiB',
    });
    // Exactly at the limit is fine.
    const exact = await upload(member(), Buffer.alloc(limit * 1024 * 1024), 'exact.bin');
    expect(exact.status).toBe(200);
    const id = (await member().get('/attachments')).body.attachments.find(
      (a: { path_id: string }) => a.path_id === pathIdOf(exact.body.url),
    ).id;
    expect((await member().delete(`/attachments/${id}`)).status).toBe(200);
  });

  it('refuses uploads beyond the per-user quota, counting only that user', async () => {
    const hoarder = await quickMember(t, 'Hoarder');
    const quota = MAX_UPLOAD_SPACE_PER_USER_MIB * 1024 * 1024;
    t.server.ctx.db
      .prepare(
        `INSERT INTO attachments (owner_id, path_id, file_name, size, create_time_ms, storage_key)
         VALUES (?, ?, 'old.bin', ?, 0, 'uploads/00/missing')`,
      )
      .run(hoarder.id, `1/00/hoard${hoarder.id}/old.bin`, quota - 10);
    expect((await upload(t.as(hoarder), '0123456789', 'fits.txt')).status).toBe(200);
    const res = await upload(t.as(hoarder), 'x', 'over.txt');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'REALM_UPLOAD_QUOTA',
      msg: `Upload would exceed your upload quota of ${MAX_UPLOAD_SPACE_PER_USER_MIB} MiB. Delete some of your uploaded files to make room.`,
    });
    // Someone else is not affected.
    expect((await upload(member(), 'x', 'other.txt')).status).toBe(200);
  });

  it('needs credentials', async () => {
    const res = await t
      .anonymous()
      .post('/user_uploads', { file: new File(['x'], 'a.txt') }, { encoding: 'multipart' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('bots and guests may upload', async () => {
    expect((await upload(t.as('bot'), 'b', 'bot.txt')).status).toBe(200);
    expect((await upload(t.as('guest'), 'g', 'guest.txt')).status).toBe(200);
  });
});

describe('hostile file names', () => {
  const cases: Array<[string, string]> = [
    ['../../../etc/passwd', 'passwd'],
    ['..', 'uploaded-file'],
    ['a/b/c.txt', 'c.txt'],
    ['C:\\Windows\\evil.bat', 'evil.bat'],
    ['nul\u0000byte.txt', 'nulbyte.txt'],
    ['<script>alert(1)</script>.html', 'script.html'],
    ['<b onclick=x>.svg', 'b-onclickx.svg'],
    ['my holiday  photo (1).txt', 'my-holiday-photo-1.txt'],
    ['...', '...'],
  ];
  for (const [given, sanitized] of cases) {
    it(`${JSON.stringify(given)} becomes ${sanitized} and stays inside the files directory`, async () => {
      const res = await upload(member(), 'data', given, 'text/plain');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.filename).toBe(sanitized);
      const segments = pathIdOf(res.body.url).split('/');
      expect(segments).toHaveLength(4);
      expect(segments[3]).toBe(sanitized);
      // Stored files are named by the server alone.
      for (const file of allFiles(t.dataDir)) {
        expect(path.basename(file)).not.toContain(sanitized);
      }
      const served = await member().fetch(res.body.url);
      expect(served.status).toBe(200);
      expect(await served.text()).toBe('data');
    });
  }

  it('a file part without a name is no file (busboy reads it as a field)', async () => {
    const res = await upload(member(), 'data', '', 'text/plain');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('You must specify a file to upload');
  });

  it('keeps letters of any script, percent-encoded in the URL', async () => {
    const res = await upload(member(), 'hei', 'Grüße 日本.txt', 'text/plain');
    expect(res.body.filename).toBe('Grüße-日本.txt');
    expect(res.body.url.endsWith(`/${encodeURIComponent('Grüße-日本.txt')}`)).toBe(true);
    const served = await member().fetch(res.body.url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('hei');
  });

  it('stores files under server-made names only', async () => {
    const res = await upload(member(), 'payload', 'evil.txt', 'text/plain');
    const stored = allFiles(filesDir()).filter((f) => readFileSync(f).toString() === 'payload');
    expect(stored).toHaveLength(1);
    expect(path.basename(stored[0]!)).not.toContain('evil');
    expect(res.status).toBe(200);
  });
});

describe('GET /attachments and DELETE /attachments/{id}', () => {
  it('lists only my uploads, with the messages linking them', async () => {
    const lister = await quickMember(t, 'Lister');
    const client = t.as(lister);
    const { url } = await uploadOk(client, await png(4, 3), 'tiny.png', 'image/png');
    const res = await client.get('/attachments');
    expect(res.status).toBe(200);
    expect(res.body.attachments).toHaveLength(1);
    const [a] = res.body.attachments;
    expect(a).toMatchObject({ name: 'tiny.png', path_id: pathIdOf(url), messages: [] });
    expect(typeof a.create_time).toBe('number');
    expect(a.create_time).toBeGreaterThan(1_600_000_000_000);
    expect(typeof res.body.upload_space_used).toBe('number');
    const others = (await member().get('/attachments')).body.attachments;
    expect(others.some((o: { id: number }) => o.id === a.id)).toBe(false);
  });

  it('deletes the file, its thumbnails and tells only the owner', async () => {
    const before = allFiles(filesDir()).length;
    const { url } = await uploadOk(member(), await png(1000, 700), 'big.png', 'image/png');
    expect(allFiles(filesDir()).length).toBe(before + 2); // the original and one still thumbnail
    const id = (await member().get('/attachments')).body.attachments.find(
      (a: { path_id: string }) => a.path_id === pathIdOf(url),
    ).id;
    await watchers.clear();

    const res = await member().delete(`/attachments/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(allFiles(filesDir()).length).toBe(before);
    const events = await watchers.take('attachment');
    expect(receivers(events, isEvent('attachment', 'remove'))).toEqual([
      'member',
      'member:attachments-only',
    ]);
    expect(events.member![0]).toMatchObject({ attachment: { id } });
    expect(typeof events.member![0].upload_space_used).toBe('number');
    expect((await member().fetch(url)).status).toBe(404);
  });

  it('answers Invalid attachment for unknown ids and for other people’s uploads', async () => {
    const { url } = await uploadOk(member(), 'mine', 'mine.txt');
    const id = (await member().get('/attachments')).body.attachments.find(
      (a: { path_id: string }) => a.path_id === pathIdOf(url),
    ).id;
    for (const who of ['owner', 'admin', 'guest'] as const) {
      const res = await t.as(who).delete(`/attachments/${id}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid attachment' });
    }
    const missing = await member().delete('/attachments/999999');
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('Invalid attachment');
    expect((await member().fetch(url)).status).toBe(200);
  });

  it('404s a non-numeric id', async () => {
    expect((await member().delete('/attachments/abc')).status).toBe(404);
  });
});

describe('register', () => {
  it('reports the upload limit and the thumbnail formats', async () => {
    const res = await member().post('/register', { fetch_event_types: ['realm'] });
    expect(res.body.max_file_upload_size_mib).toBe(25);
    expect(res.body.server_thumbnail_formats).toEqual([
      {
        name: '840x560-anim.webp',
        max_width: 840,
        max_height: 560,
        format: 'webp',
        animated: true,
      },
      { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
    ]);
  });
});
