/**
 * A request must arrive within the request timeout (60 s by default, 1 s
 * here): a client that sends headers and then dribbles or holds the body is
 * answered 408 and disconnected. Long-polls, whose request has fully arrived,
 * may stay open far longer.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authHeader } from './support.js';

const TIMEOUT_MS = 1000;
/** Generous: the server checks every fraction of the timeout, the machine may be slow. */
const GIVE_UP_MS = 15_000;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    requestTimeoutMs: TIMEOUT_MS,
    eventTimings: { heartbeatMs: 3 * TIMEOUT_MS },
  });
});
afterAll(() => t.close());

interface SocketOutcome {
  /** Everything the server sent before closing. */
  received: string;
  closed: boolean;
  elapsedMs: number;
}

/**
 * Opens a raw connection, sends `head`, then `drip` every `dripMs` (if
 * given) until the server closes the connection or GIVE_UP_MS pass.
 */
function slowRequest(
  head: string,
  drip?: { chunk: string; everyMs: number },
): Promise<SocketOutcome> {
  const { port } = new URL(t.url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ received, closed, elapsedMs: Date.now() - started });
    };
    const giveUp = setTimeout(() => finish(false), GIVE_UP_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => {});
    socket.on('connect', () => {
      socket.write(head);
      if (drip) {
        timer = setInterval(() => {
          if (socket.writable) socket.write(drip.chunk);
        }, drip.everyMs);
      }
    });
  });
}

function expectTimedOut(outcome: SocketOutcome): void {
  expect(outcome.closed, 'the server never closed the connection').toBe(true);
  expect(outcome.elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.9);
  const statusLine = outcome.received.split('\r\n')[0];
  expect(statusLine).toMatch(/^HTTP\/1\.1 408 /);
  const body = JSON.parse(outcome.received.slice(outcome.received.indexOf('\r\n\r\n') + 4));
  expect(body).toEqual({
    result: 'error',
    msg: expect.stringMatching(/timed out/),
    code: 'REQUEST_TIMEOUT',
  });
}

function postHead(path: string, length: number, extra = ''): string {
  return (
    `POST /api/v1${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}` +
    `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`
  );
}

describe('slow request bodies', () => {
  it('a body that is held back is cut off (unauthenticated endpoint)', async () => {
    const outcome = await slowRequest(`${postHead('/fetch_api_key', 100)}username=`);
    expectTimedOut(outcome);
  });

  it('a body dribbled a byte at a time is cut off (authenticated endpoint)', async () => {
    const auth = `Authorization: ${authHeader(t.accounts.member)}\r\n`;
    const outcome = await slowRequest(`${postHead('/messages', 100_000, auth)}content=`, {
      chunk: 'x',
      everyMs: 100,
    });
    expectTimedOut(outcome);
  });

  it('headers dribbled forever are cut off too', async () => {
    const outcome = await slowRequest('GET /api/v1/server_settings HTTP/1.1\r\n', {
      chunk: 'X-Slow: 1\r\n',
      everyMs: 100,
    });
    expectTimedOut(outcome);
  });

  it('the deadline is per request: an idle keep-alive connection serves a later request', async () => {
    const { port } = new URL(t.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.setEncoding('utf8');
    let received = '';
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    const request = 'GET /api/v1/server_settings HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const responses = async (count: number) => {
      const deadline = Date.now() + GIVE_UP_MS;
      while (received.split('HTTP/1.1 200 ').length - 1 < count && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      return received.split('HTTP/1.1 200 ').length - 1;
    };
    try {
      await new Promise<void>((resolve) => socket.on('connect', resolve));
      socket.write(request);
      expect(await responses(1)).toBe(1);
      await new Promise((r) => setTimeout(r, TIMEOUT_MS * 2));
      expect(socket.destroyed).toBe(false);
      socket.write(request);
      expect(await responses(2)).toBe(2);
    } finally {
      socket.destroy();
    }
  });
});

describe('long-polls', () => {
  it('a GET /events outlasting the request timeout still gets its heartbeat', async () => {
    const member = t.as('member');
    const reg = await member.post('/register', { event_types: ['message'] });
    expect(reg.status).toBe(200);
    const started = Date.now();
    const poll = await member.get('/events', {
      queue_id: reg.body.queue_id,
      last_event_id: reg.body.last_event_id,
    });
    expect(Date.now() - started).toBeGreaterThan(TIMEOUT_MS);
    expect(poll.status).toBe(200);
    expect(poll.body.events).toEqual([{ type: 'heartbeat', id: expect.any(Number) }]);
  });

  it('and an event that arrives after the request timeout', async () => {
    const member = t.as('member');
    const reg = await member.post('/register', { event_types: ['message'] });
    const polling = member.get('/events', {
      queue_id: reg.body.queue_id,
      last_event_id: reg.body.last_event_id,
    });
    await new Promise((r) => setTimeout(r, TIMEOUT_MS * 1.5));
    const sent = await t.as('owner').post('/messages', {
      type: 'direct',
      to: JSON.stringify([t.accounts.member.id]),
      content: 'still there?',
    });
    expect(sent.status).toBe(200);
    const poll = await polling;
    expect(poll.status).toBe(200);
    expect(poll.body.events).toEqual([
      expect.objectContaining({
        type: 'message',
        message: expect.objectContaining({ id: sent.body.id }),
      }),
    ]);
  });
});
