/**
 * close() (a quit, or the restart a restore asks for) must not wait on a
 * client: a request still arriving is cut after CLOSE_GRACE_MS, not held
 * until the 60 s request timeout.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { expect, it } from 'vitest';
import { CLOSE_GRACE_MS } from '../../server/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Well under the server's request timeout (60 s), well over the grace. */
const BOUND_MS = 15_000;

async function openSocket(t: TestServer, firstBytes: string): Promise<Socket> {
  const url = new URL(t.url);
  const socket = connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  socket.write(firstBytes);
  // The server has read the bytes once it holds the request open.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return socket;
}

async function closesWithinBound(t: TestServer, sockets: Socket[]): Promise<void> {
  const ended = sockets.map((socket) => once(socket, 'close'));
  const started = Date.now();
  const outcome = await Promise.race([
    t.close().then(() => 'closed'),
    new Promise((resolve) => setTimeout(resolve, BOUND_MS, 'still waiting')),
  ]);
  expect(outcome).toBe('closed');
  expect(Date.now() - started).toBeGreaterThanOrEqual(CLOSE_GRACE_MS - 100);
  await Promise.all(ended);
}

it('cuts a request whose body stalls, and the database closes', async () => {
  const t = await startTestServer();
  const socket = await openSocket(
    t,
    'POST /api/v1/messages HTTP/1.1\r\nHost: localhost\r\n' +
      'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntype=str',
  );
  await closesWithinBound(t, [socket]);
  expect(t.server.ctx.db.open).toBe(false);
}, 30_000);

it('cuts a request whose headers stall', async () => {
  const t = await startTestServer();
  const socket = await openSocket(t, 'GET /api/v1/users/me HTTP/1.1\r\nHost: localhost\r\n');
  await closesWithinBound(t, [socket]);
}, 30_000);

it('answers a whole request, then closes its idle keep-alive socket without waiting', async () => {
  const t = await startTestServer();
  const socket = await openSocket(
    t,
    'GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\n\r\n',
  );
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(received).toMatch(/^HTTP\/1\.1 200 /);
  const ended = once(socket, 'close');
  const started = Date.now();
  await t.close();
  await ended;
  expect(Date.now() - started).toBeLessThan(CLOSE_GRACE_MS);
}, 30_000);
