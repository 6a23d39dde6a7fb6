/**
 * Reading multipart/form-data bodies (server/http/multipart-body.ts): fields
 * are parameters, file parts go to their endpoint in order, and every broken
 * or hostile form is a JSON 4xx that leaves the server answering.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../server/shared/limits.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const alertWords = (init: RequestInit) =>
  t.as('member').fetch('/api/v1/users/me/alert_words', { method: 'POST', ...init });

/** A hand-written multipart body, for what FormData will not produce. */
function rawForm(parts: string[], boundary = 'hearth-test-boundary'): RequestInit {
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`,
  };
}
const field = (name: string, value: string) =>
  `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;

async function expectJsonError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await res.json()).toMatchObject({ result: 'error', code });
}

describe('multipart form bodies', () => {
  it('fields are parameters; a repeated name counts its last value, as in a form', async () => {
    const form = new FormData();
    form.append('alert_words', JSON.stringify(['first']));
    form.append('alert_words', JSON.stringify(['kettle', 'teapot']));
    const res = await alertWords({ body: form });
    expect(res.status).toBe(200);
    expect((await res.json()).alert_words).toEqual(['kettle', 'teapot']);
  });

  it('hands file parts to the upload endpoint in order, with their names and types', async () => {
    const form = new FormData();
    form.append('file', new File(['first file'], 'one.txt', { type: 'text/plain' }));
    const res = await t.as('member').fetch('/api/v1/user_uploads', { method: 'POST', body: form });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(/\/one\.txt$/);
    const file = await t.as('member').fetch(url);
    expect(await file.text()).toBe('first file');
  });

  it('more than four files is a 413', async () => {
    const form = new FormData();
    for (let i = 0; i < 5; i++) form.append(`file${i}`, new File(['x'], `${i}.txt`));
    await expectJsonError(await alertWords({ body: form }), 413, 'REQUEST_TOO_LARGE');
  });

  it('more than 1,000 fields is a 413', async () => {
    const form = new FormData();
    for (let i = 0; i < 1001; i++) form.append(`f${i}`, 'x');
    await expectJsonError(await alertWords({ body: form }), 413, 'REQUEST_TOO_LARGE');
  });

  it('fields carrying more than the body limit in all are a 413, repeated names too', async () => {
    const quarter = 'x'.repeat(BODY_LIMIT_BYTES / 4);
    const repeated = new FormData();
    for (let i = 0; i < 5; i++) repeated.append('alert_words', quarter);
    await expectJsonError(await alertWords({ body: repeated }), 413, 'REQUEST_TOO_LARGE');
    // One field busboy cuts at the limit is not read as the shorter value.
    const single = new FormData();
    single.append('alert_words', 'x'.repeat(BODY_LIMIT_BYTES + 10));
    await expectJsonError(await alertWords({ body: single }), 413, 'REQUEST_TOO_LARGE');
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty'])(
    'a field named %s is a 400 and changes nothing',
    async (name) => {
      const res = await alertWords(
        rawForm([field(name, '{"polluted": true}'), field('alert_words', '["x"]')]),
      );
      await expectJsonError(res, 400, 'BAD_REQUEST');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const words = await t.as('member').get('/users/me/alert_words');
      expect(words.body.alert_words).not.toContain('x');
    },
  );

  it('a file part with a prototype name is a 400 too', async () => {
    const res = await alertWords(
      rawForm([
        'Content-Disposition: form-data; name="__proto__"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello',
      ]),
    );
    await expectJsonError(res, 400, 'BAD_REQUEST');
  });

  it('a multipart type without a boundary is a 400', async () => {
    const res = await alertWords({
      headers: { 'content-type': 'multipart/form-data' },
      body: 'alert_words=["x"]',
    });
    await expectJsonError(res, 400, 'BAD_REQUEST');
  });

  it('a body that stops before its closing boundary is a 400', async () => {
    const res = await alertWords({
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: `--b\r\n${field('alert_words', '["x"]')}\r\n--b\r\nContent-Disposition: form-data; name="y"\r\n\r\nunfinished`,
    });
    await expectJsonError(res, 400, 'BAD_REQUEST');
  });

  it('an empty body is an empty form: the endpoint names what is missing', async () => {
    const res = await alertWords({
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'alert_words',
    });
  });

  it('a client that leaves in the middle of a form does not stop the server', async () => {
    const url = new URL(t.url);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(
          'POST /api/v1/user_uploads HTTP/1.1\r\nHost: localhost\r\n' +
            'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n' +
            '--b\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\npartial',
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on('error', reject);
    });
    const res = await t.as('member').get('/users/me/alert_words');
    expect(res.status).toBe(200);
  });
});
