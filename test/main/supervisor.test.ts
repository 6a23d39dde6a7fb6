/**
 * The server supervisor with a scripted server process: the ready
 * handshake, relaying calls, crash restarts with backoff, giving up,
 * requested restarts and stopping (killing a server that hangs).
 */
import { EventEmitter } from 'node:events';
import superjson from 'superjson';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FromServer, ToServer } from '../../main/server-messages.js';
import { ServerSupervisor, type SupervisorOptions } from '../../main/server-supervisor.js';
import type { IpcOperation, IpcResponse } from '../../server/trpc/ipc-operation.js';

class FakeChild extends EventEmitter {
  readonly received: ToServer[] = [];
  killed = false;
  /** Exit when told to stop (a healthy server); false: hang. */
  stopsWhenAsked = true;
  constructor(readonly args: string[]) {
    super();
  }
  postMessage(message: ToServer) {
    this.received.push(message);
    if (message.type === 'stop' && this.stopsWhenAsked) {
      queueMicrotask(() => this.emit('exit', 0));
    }
  }
  kill() {
    this.killed = true;
    queueMicrotask(() => this.emit('exit', 1));
    return true;
  }
  say(message: FromServer) {
    this.emit('message', message);
  }
  ready(port = 9991) {
    this.say({
      type: 'ready',
      url: `http://127.0.0.1:${port}`,
      localUrl: `http://127.0.0.1:${port}`,
      port,
      tlsFingerprint: null,
      host: '127.0.0.1',
      portFallback: port !== 9991,
      warning: null,
    });
  }
}

let children: FakeChild[];
const last = () => children.at(-1)!;

function supervisor(options: Partial<SupervisorOptions> = {}) {
  return new ServerSupervisor({
    entry: '/app/server-process.js',
    fork: (_entry, args) => {
      const child = new FakeChild(args);
      children.push(child);
      return child;
    },
    dataDir: '/data',
    preferredPort: 9991,
    initialDelayMs: 100,
    maxDelayMs: 1000,
    maxCrashStreak: 4,
    stopTimeoutMs: 5000,
    ...options,
  });
}

const op = (path: string, id = 1): IpcOperation => ({ id, type: 'query', path });
const decode = (response: IpcResponse) =>
  'result' in response
    ? { data: superjson.deserialize(response.result.data as never) }
    : { error: superjson.deserialize(response.error as never) };

beforeEach(() => {
  children = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('the ready handshake', () => {
  it('starts, reports the server where it listens, and tells it its status', () => {
    const s = supervisor();
    expect(s.status().state).toBe('stopped');
    s.start();
    expect(s.status()).toMatchObject({ state: 'starting', url: null, restarts: 0 });
    expect(JSON.parse(last().args[0]!.replace('--hearth-config=', ''))).toEqual({
      dataDir: '/data',
      ports: [9991],
      preferredPort: 9991,
    });
    last().ready(40123);
    expect(s.status()).toMatchObject({
      state: 'running',
      url: 'http://127.0.0.1:40123',
      port: 40123,
      portFallback: true,
      host: '127.0.0.1',
    });
    expect(last().received.at(-1)).toEqual({ type: 'status', status: s.status() });
  });

  it('holds calls until the server is ready; answers desktop.status itself meanwhile', async () => {
    const s = supervisor();
    s.start();
    const status = await s.call(op('desktop.status', 7));
    expect(decode(status)).toEqual({ data: expect.objectContaining({ state: 'starting' }) });
    const call = s.call(op('users.list', 8));
    expect(last().received).toEqual([]);
    last().ready();
    const sent = last().received.find((m) => m.type === 'trpc');
    expect(sent).toEqual({ type: 'trpc', id: expect.any(Number), operation: op('users.list', 8) });
    const response = { id: 8, result: { type: 'data' as const, data: superjson.serialize([1]) } };
    last().say({ type: 'trpc-result', id: (sent as { id: number }).id, response });
    expect(await call).toEqual(response);
  });
});

describe('crashes', () => {
  it('restart with a doubling delay; a call in flight fails with SERVICE_UNAVAILABLE', async () => {
    const s = supervisor();
    s.start();
    last().ready(40123);
    const inFlight = s.call(op('users.list'));
    last().emit('exit', 1);
    expect(decode(await inFlight)).toEqual({
      error: {
        message: 'The Hearth server stopped',
        code: -32603,
        data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503, path: 'users.list', zulip: null },
      },
    });
    expect(s.status()).toMatchObject({
      state: 'restarting',
      restarts: 1,
      url: 'http://127.0.0.1:40123',
      lastError: 'The server process exited (code 1)',
    });
    vi.advanceTimersByTime(99);
    expect(children).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(children).toHaveLength(2);
    // The restarted server tries the port it had, after the preferred one.
    expect(last().args[0]).toContain('"ports":[9991,40123]');

    last().say({ type: 'failed', message: 'database is locked' });
    last().emit('exit', 1);
    expect(s.status()).toMatchObject({ restarts: 2, lastError: 'database is locked' });
    vi.advanceTimersByTime(199);
    expect(children).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(children).toHaveLength(3);
    last().ready(40123);
    expect(s.status()).toMatchObject({ state: 'running', restarts: 2, lastError: null });
  });

  it('give up after too many in a row, until a restart is asked for', async () => {
    const s = supervisor();
    s.start();
    for (let i = 0; i < 4; i++) {
      last().emit('exit', 1);
      vi.advanceTimersByTime(1000);
    }
    expect(children).toHaveLength(4);
    expect(s.status()).toMatchObject({ state: 'stopped', restarts: 3 });
    const refused = decode(await s.call(op('users.list')));
    expect(refused.error).toMatchObject({
      message: 'The server process exited (code 1)',
      data: { code: 'SERVICE_UNAVAILABLE' },
    });
    await s.restart();
    expect(children).toHaveLength(5);
    last().ready();
    expect(s.status().state).toBe('running');
  });

  it('a long enough run clears the streak, so the backoff starts over', () => {
    const s = supervisor({ stableAfterMs: 5000 });
    s.start();
    last().emit('exit', 1);
    vi.advanceTimersByTime(100);
    last().emit('exit', 1);
    vi.advanceTimersByTime(200);
    last().ready();
    vi.advanceTimersByTime(5000);
    last().emit('exit', 1);
    vi.advanceTimersByTime(100);
    expect(children).toHaveLength(4);
  });
});

describe('a data directory another server serves', () => {
  it('is no crash: stopped at once, no restart, the holder reported to the shell', async () => {
    const s = supervisor();
    const reports: unknown[] = [];
    s.on('in-use', (holder) => reports.push(holder));
    s.start();
    const waiting = s.call(op('users.list'));
    const holder = { pid: 4242, url: 'http://127.0.0.1:9991', localUrl: 'http://127.0.0.1:9991' };
    const message =
      'Another Hearth server (http://127.0.0.1:9991, process 4242) is already serving /data.';
    last().say({ type: 'in-use', message, holder });
    last().emit('exit', 1);
    expect(s.status()).toMatchObject({ state: 'stopped', restarts: 0, lastError: message });
    expect(reports).toEqual([holder]);
    expect(decode(await waiting).error).toMatchObject({ message });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(children).toHaveLength(1);
    // Asked to, it tries again (the other server may have stopped meanwhile).
    await s.restart();
    expect(children).toHaveLength(2);
    last().ready();
    expect(s.status()).toMatchObject({ state: 'running', lastError: null });
  });
});

describe('requested restarts and stops', () => {
  it('the server asking to restart (new network settings) is no crash', async () => {
    const s = supervisor();
    s.start();
    last().ready();
    const first = last();
    first.say({ type: 'restart' });
    expect(s.status().state).toBe('restarting');
    await vi.waitFor(() => expect(children).toHaveLength(2));
    expect(first.received.at(-1)).toEqual({ type: 'stop' });
    last().ready();
    expect(s.status()).toMatchObject({ state: 'running', restarts: 0 });
  });

  it('stop asks the server to close, and kills it when it hangs', async () => {
    const s = supervisor();
    s.start();
    last().ready();
    last().stopsWhenAsked = false;
    const stopping = s.stop();
    await vi.advanceTimersByTimeAsync(5000);
    await stopping;
    expect(last().killed).toBe(true);
    expect(s.status()).toMatchObject({ state: 'stopped', url: null, port: null });
    // No restart follows a stop.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(children).toHaveLength(1);
  });

  it('calls waiting for a server that never starts fail in time', async () => {
    const s = supervisor({ callTimeoutMs: 3000 });
    s.start();
    const call = s.call(op('users.list'));
    vi.advanceTimersByTime(3000);
    expect(decode(await call).error).toMatchObject({
      message: 'The Hearth server did not start in time',
    });
  });
});
