/**
 * What an upload costs the server before anyone knows it is wanted: wrong
 * credentials are answered before the body is read, file parts go to
 * temporary files on disk (never whole into memory) that every way out of
 * the request removes, and a file part past the read limit stops the read.
 */
import { readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCOMING_FILES_AREA } from '../../server/core/file-store.js';
import { MAX_UPLOAD_READ_BYTES, REFUSED_BODY_DRAIN_BYTES } from '../../server/shared/limits.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const GIB = 1024 * 1024 * 1024;
const BOUNDARY = 'hearth-upload-boundary';
const fileHead = (name = 'big.bin') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
  'Content-Type: application/octet-stream\r\n\r\n';

/** The temporary files of requests still being read or handled. */
const incomingFiles = () => {
  try {
    return readdirSync(path.join(t.server.ctx.config.filesDir, INCOMING_FILES_AREA));
  } catch {
    return [];
  }
};

async function eventually(check: () => boolean, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Upload {
  socket: net.Socket;
  /** The bytes of body written before the server answered (or the cap was reached). */
  written: () => number;
  /** The whole answer, once the server closed the connection. */
  closed: Promise<string>;
  answer: () => string;
}

/**
 * A form upload on a raw connection that declares `declared` bytes and writes
 * its file's bytes as fast as the server reads them, stopping at `cap` bytes
 * or as soon as an answer arrives: what a client streaming a huge file does.
 */
function upload(options: { authorization?: string; declared: number; cap: number }): Upload {
  const socket = net.connect(Number(new URL(t.url).port), '127.0.0.1');
  let answer = '';
  let written = 0;
  socket.on('data', (chunk) => (answer += chunk));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  const auth = options.authorization ? `Authorization: ${options.authorization}\r\n` : '';
  socket.write(
    `POST /api/v1/user_uploads HTTP/1.1\r\nHost: localhost\r\n${auth}` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
      `Content-Length: ${options.declared}\r\n\r\n${fileHead()}`,
  );
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  const pump = () => {
    while (written < options.cap && answer === '' && !socket.destroyed) {
      written += chunk.length;
      if (!socket.write(chunk)) {
        socket.once('drain', pump);
        return;
      }
    }
  };
  pump();
  return { socket, written: () => written, closed, answer: () => answer };
}

describe('credentials come before the body', () => {
  it('an upload of 1 GB with a wrong key is answered 401 at once, its body not read', async () => {
    const sending = upload({
      authorization: basicAuth(t.accounts.member.email, 'not-the-key'),
      declared: GIB,
      cap: REFUSED_BODY_DRAIN_BYTES,
    });
    const answer = await sending.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('"code":"INVALID_API_KEY"');
    // The server stopped the connection long before the drain bound, let alone the body's end.
    expect(sending.written()).toBeLessThan(REFUSED_BODY_DRAIN_BYTES / 2);
    await eventually(() => incomingFiles().length === 0);
  });

  it('an upload without credentials is answered 401 before its body arrives', async () => {
    const sending = upload({ declared: GIB, cap: REFUSED_BODY_DRAIN_BYTES });
    const answer = await sending.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(sending.written()).toBeLessThan(REFUSED_BODY_DRAIN_BYTES / 2);
  });

  it('a small form with a wrong key still reads its 401 (the body is drained first)', async () => {
    const form = new FormData();
    form.append('file', new File([new Uint8Array(1024 * 1024)], 'a.bin'));
    const res = await fetch(`${t.url}/api/v1/user_uploads`, {
      method: 'POST',
      headers: { authorization: basicAuth(t.accounts.member.email, 'wrong') },
      body: form,
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'INVALID_API_KEY' });
  });
});

describe('file parts on disk', () => {
  it('a file part arrives in a temporary file, removed when the client leaves', async () => {
    const member = t.accounts.member;
    const sending = upload({
      authorization: basicAuth(member.email, member.apiKey),
      declared: 20 * 1024 * 1024,
      cap: 4 * 1024 * 1024,
    });
    await eventually(() => incomingFiles().length === 1);
    sending.socket.destroy();
    await eventually(() => incomingFiles().length === 0);
    const res = await t.as('member').get('/users/me/alert_words');
    expect(res.status).toBe(200);
  });

  it('success, a refused file and a refused form leave no temporary file', async () => {
    const ok = new FormData();
    ok.append('file', new File(['hello'], 'hello.txt', { type: 'text/plain' }));
    const stored = await t.as('member').fetch('/api/v1/user_uploads', { method: 'POST', body: ok });
    expect(stored.status).toBe(200);
    const { url } = (await stored.json()) as { url: string };
    expect(await (await t.as('member').fetch(url)).text()).toBe('hello');

    const tooMany = new FormData();
    for (let i = 0; i < 5; i++) tooMany.append(`f${i}`, new File(['x'], `${i}.txt`));
    const refused = await t
      .as('member')
      .fetch('/api/v1/user_uploads', { method: 'POST', body: tooMany });
    expect(refused.status).toBe(413);

    const two = new FormData();
    two.append('a', new File(['x'], 'a.txt'));
    two.append('b', new File(['y'], 'b.txt'));
    const twoFiles = await t
      .as('member')
      .fetch('/api/v1/user_uploads', { method: 'POST', body: two });
    expect(await twoFiles.json()).toMatchObject({ msg: 'You may only upload one file at a time' });

    await eventually(() => incomingFiles().length === 0);
  });
});

describe('the read limit', () => {
  it('a 1 GB file is refused with the size error once the limit is read, not at its end', async () => {
    const member = t.accounts.member;
    const sending = upload({
      authorization: basicAuth(member.email, member.apiKey),
      declared: GIB,
      cap: 2 * MAX_UPLOAD_READ_BYTES + REFUSED_BODY_DRAIN_BYTES,
    });
    const answer = await sending.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('Uploaded file is larger than the allowed limit of 25 MiB');
    expect(sending.written()).toBeLessThan(2 * MAX_UPLOAD_READ_BYTES);
    await eventually(() => incomingFiles().length === 0);
  });
});
