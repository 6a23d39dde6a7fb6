/**
 * A request refused while its body is still arriving (server/http/refused-body.ts):
 * the client, which writes its whole body before reading, still reads
 * Zulip's JSON error; a body too long to wait for is answered at once.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_BODY_DRAIN_BYTES } from '../../server/shared/limits.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function expectTooLarge(res: Response) {
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({
    result: 'error',
    msg: 'Request body too large',
    code: 'REQUEST_TOO_LARGE',
  });
}

/**
 * The member's credentials, for forms: a form is refused for its credentials
 * before its body is read (upload-bodies.test.ts), so only an accepted one
 * gets as far as a refusal for its body.
 */
const authorization = () =>
  `Authorization: ${basicAuth(t.accounts.member.email, t.accounts.member.apiKey)}\r\n`;

/** Raw HTTP on its own connection: what arrives, and when the server closed it. */
function rawRequest(head: string) {
  const socket = net.connect(Number(new URL(t.url).port), '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.write(head);
  return { socket, closed, answer: () => answer };
}

describe('refused bodies', () => {
  it('a form refused at its fifth file, with megabytes of files still to come, reads the 413', async () => {
    const form = new FormData();
    for (let i = 0; i < 5; i++) {
      form.append(`file${i}`, new File([new Uint8Array(8 * 1024 * 1024)], `${i}.bin`));
    }
    const res = await t.as('member').fetch('/api/v1/user_uploads', { method: 'POST', body: form });
    await expectTooLarge(res);
  });

  it('waits for the rest of the body before answering', async () => {
    const boundary = 'refused';
    const part = (i: number) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"; filename="${i}"\r\n\r\nx\r\n`;
    const parts = [0, 1, 2, 3, 4, 5].map(part);
    const tail = 'y'.repeat(1000);
    const body = `${parts.join('')}--${boundary}--\r\n${tail}`;
    const request = rawRequest(
      `POST /api/v1/users/me/alert_words HTTP/1.1\r\nHost: localhost\r\n${authorization()}` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${parts.join('')}`,
    );
    // The fifth file was refused, but 1,000 declared bytes have not arrived yet.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(request.answer()).toBe('');
    request.socket.write(`--${boundary}--\r\n${tail}`);
    const answer = await request.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"REQUEST_TOO_LARGE"');
  });

  it('does not wait for a body declared longer than it would read', async () => {
    const request = rawRequest(
      'POST /api/v1/users/me/alert_words HTTP/1.1\r\nHost: localhost\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${REFUSED_BODY_DRAIN_BYTES + 1}\r\n\r\n{"alert_words": [`,
    );
    const answer = await request.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"REQUEST_TOO_LARGE"');
  });
});
