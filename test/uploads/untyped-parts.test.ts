/**
 * File parts sent without a Content-Type, as the Python bindings send them
 * (`client.upload_custom_emoji`, `upload_file`, avatar uploads): Zulip takes
 * the type from the file name (get_file_info), for custom emoji, avatars
 * and uploads alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, expectError, raw } from '../api/support.js';
import { pngImage } from '../emoji/images.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A multipart body whose one file part has no Content-Type header, exactly as `requests` writes it. */
function untypedPart(fileName: string, data: Buffer) {
  const boundary = 'hearthboundary4f2a9c';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${fileName}"; filename="${fileName}"\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    headers: {
      authorization: authHeader(t.accounts.owner),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
  };
}

describe('a file part without a Content-Type', () => {
  it('becomes a custom emoji when its name says it is an image', async () => {
    const png = await pngImage(80, 80);
    const res = await raw(
      t.url,
      'POST',
      '/api/v1/realm/emoji/untyped_png',
      untypedPart('emoji.png', png),
    );
    expect(res.status, res.text).toBe(200);
    const listed = await t.as('member').get('/realm/emoji');
    const emoji = Object.values(listed.body.emoji).find(
      (e) => (e as { name: string }).name === 'untyped_png',
    );
    expect(emoji).toMatchObject({ source_url: expect.stringMatching(/\.png$/) });
  });

  it('is still refused as an emoji when the name says it is not an image', async () => {
    const res = await raw(
      t.url,
      'POST',
      '/api/v1/realm/emoji/untyped_txt',
      untypedPart('notes.txt', Buffer.from('hello')),
    );
    expectError(res, 400, 'BAD_IMAGE', 'Invalid image format');
  });

  it('becomes an avatar', async () => {
    const png = await pngImage(120, 120);
    const res = await raw(t.url, 'POST', '/api/v1/users/me/avatar', untypedPart('me.png', png));
    expect(res.status, res.text).toBe(200);
    expect(res.body.avatar_url).toMatch(/\/user_avatars\//);
  });

  it('is an upload served as the type its name says', async () => {
    const png = await pngImage(20, 20);
    const res = await raw(t.url, 'POST', '/api/v1/user_uploads', untypedPart('picture.png', png));
    expect(res.status, res.text).toBe(200);
    const file = await fetch(`${t.url}${res.body.url}`, {
      headers: { authorization: authHeader(t.accounts.owner) },
    });
    expect(file.headers.get('content-type')).toBe('image/png');
    const text = await raw(
      t.url,
      'POST',
      '/api/v1/user_uploads',
      untypedPart('notes', Buffer.from('hello')),
    );
    const served = await fetch(`${t.url}${text.body.url}`, {
      headers: { authorization: authHeader(t.accounts.owner) },
    });
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });
});
