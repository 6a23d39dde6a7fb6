/**
 * One client cannot take every file descriptor (issue 20, point 8): idle
 * sockets from one address beyond the limit are closed at once, while other
 * addresses and this machine's own clients are still answered.
 *
 * Other machines are played by other loopback addresses (127.0.0.2, ...):
 * only 127.0.0.1 and ::1 are this machine's clients to the server, and the
 * tests send nothing beyond the loopback range. Linux routes all of
 * 127.0.0.0/8 to lo; elsewhere only 127.0.0.1 exists, so the tests skip.
 */
import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCliOptions } from '../../server/cli.js';
import {
  connectionLimitsFor,
  LOOPBACK_RESERVE,
  openFileLimit,
  PER_ADDRESS_LIMIT,
} from '../../server/http/connection-cap.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const linux = process.platform === 'linux';

/** Sockets opened by the current test, closed after it. */
const opened: Socket[] = [];
afterEach(() => {
  for (const socket of opened.splice(0)) socket.destroy();
});

/** An idle TCP connection from `from` to the server; resolves once connected. */
async function idleSocket(port: number, from: string): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  opened.push(socket);
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
}

/** Whether the server closed the socket within `ms`. */
async function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed || socket.readableEnded) return true;
  const closed = once(socket, 'close').then(() => true);
  const open = new Promise<boolean>((resolve) => setTimeout(resolve, ms, false));
  return Promise.race([closed, open]);
}

/** GET /api/v1/server_settings from `from`; the status, or the error's code. */
function answerFrom(port: number, from: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/server_settings',
        localAddress: from,
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    req.setTimeout(5_000, () => req.destroy(Object.assign(new Error('hung'), { code: 'HUNG' })));
    req.end();
  });
}

/** Opens `count` idle sockets from `from`, a few at a time. */
async function flood(port: number, from: string, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i += 16) {
    const batch = Math.min(16, count - i);
    sockets.push(
      ...(await Promise.all(Array.from({ length: batch }, () => idleSocket(port, from)))),
    );
  }
  return sockets;
}

describe('the limits', () => {
  it('follow the open-file limit, keeping room for files and a reserve for this machine', () => {
    expect(connectionLimitsFor(1024)).toEqual({
      total: 768,
      loopbackReserve: LOOPBACK_RESERVE,
      perAddress: PER_ADDRESS_LIMIT,
    });
    expect(connectionLimitsFor(256)).toEqual({ total: 192, loopbackReserve: 48, perAddress: 128 });
    expect(connectionLimitsFor(65_536).total).toBe(65_280);
    expect(connectionLimitsFor(null)).toEqual({
      total: 8192,
      loopbackReserve: 64,
      perAddress: 128,
    });
    if (linux) expect(openFileLimit()).toBeGreaterThan(0);
  });

  it('per address can be set from the command line or the environment', () => {
    expect(parseCliOptions([], {}).maxConnectionsPerAddress).toBeUndefined();
    expect(
      parseCliOptions(['--max-connections-per-address', '400'], {}).maxConnectionsPerAddress,
    ).toBe(400);
    expect(
      parseCliOptions([], { HEARTH_MAX_CONNECTIONS_PER_ADDRESS: '32' }).maxConnectionsPerAddress,
    ).toBe(32);
    expect(() => parseCliOptions(['--max-connections-per-address', '0'], {})).toThrow(
      'invalid connections per address: 0',
    );
  });
});

describe.runIf(linux)('one address flooding with idle sockets', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('gets the limit per address; the next ones are closed at once, others still answered', async () => {
    const port = t.server.port;
    const held = await flood(port, '127.0.0.2', PER_ADDRESS_LIMIT);
    // Held open: the server accepted them all.
    expect(await closedWithin(held.at(-1)!, 300)).toBe(false);
    expect(held.filter((s) => s.destroyed)).toEqual([]);

    const started = Date.now();
    const over = await Promise.all([idleSocket(port, '127.0.0.2'), idleSocket(port, '127.0.0.2')]);
    for (const socket of over) expect(await closedWithin(socket, 2_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await answerFrom(port, '127.0.0.2')).toMatch(/^(ECONNRESET|EPIPE|HUNG)$|socket hang up/);

    // Another machine and this one are answered all the while.
    expect(await answerFrom(port, '127.0.0.3')).toBe(200);
    expect(await answerFrom(port, '127.0.0.1')).toBe(200);
    expect((await fetch(`${t.url}/api/v1/server_settings`)).status).toBe(200);

    // A socket given back makes room for one more.
    held[0]!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await answerFrom(port, '127.0.0.2')).toBe(200);
  }, 30_000);
});

describe.runIf(linux)('many addresses flooding together', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      connectionLimits: { total: 24, loopbackReserve: 6, perAddress: 6 },
    });
  });
  afterAll(() => t.close());

  it('cannot take the reserve of this machine’s clients', async () => {
    const port = t.server.port;
    // 3 addresses x 6 fill what other machines may use (24 - 6).
    for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) await flood(port, from, 6);
    const late = await idleSocket(port, '127.0.0.5');
    expect(await closedWithin(late, 2_000)).toBe(true);
    expect(await answerFrom(port, '127.0.0.5')).not.toBe(200);
    // The owner's window and browser still get answers, and may use the reserve.
    const mine = await flood(port, '127.0.0.1', 5);
    expect(await closedWithin(mine.at(-1)!, 300)).toBe(false);
    expect(await answerFrom(port, '127.0.0.1')).toBe(200);
    // The whole budget in use: even this machine waits for a socket to close.
    await flood(port, '127.0.0.1', 1);
    expect(await answerFrom(port, '127.0.0.1')).not.toBe(200);
  }, 30_000);
});
