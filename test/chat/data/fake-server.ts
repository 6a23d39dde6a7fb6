/**
 * A fake of the server for store tests: a fetch that routes `/api/v1` calls
 * to a handler, long-polls that wait until the test releases them (or the
 * store aborts), and a store built on it with instant, recorded backoff
 * sleeps and manual timers.
 */
import { readFileSync } from 'node:fs';
import { ZulipApi } from '../../../renderer/src/chat/data/api.js';
import type { ChatState, ChatStore } from '../../../renderer/src/chat/data/model.js';
import { createChatStore, type StoreOptions } from '../../../renderer/src/chat/data/store.js';
import { fixturePath, type Recording } from './record.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
export type Json = any;

export interface Call {
  method: string;
  path: string;
  params: Record<string, string>;
  /** The request's headers, names lower-cased. */
  headers: Record<string, string>;
}

/** An answer: a JSON body with a status, or a thrown network failure. */
export type Answer =
  | { status?: number; body: Json }
  | 'network-error'
  | Promise<{ status?: number; body: Json }>;
export type Handler = (call: Call, signal: AbortSignal | undefined) => Answer | undefined;

export const success = (body: Json = {}) => ({ body: { result: 'success', msg: '', ...body } });
export const failure = (status: number, code: string, msg = 'failed') => ({
  status,
  body: { result: 'error', code, msg },
});

/** A promise that never settles unless the request is aborted (a long-poll with nothing to say). */
export function hang(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });
}

export function fakeFetch(handler: Handler, calls: Call[]): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    if (init.body instanceof URLSearchParams) Object.assign(params, Object.fromEntries(init.body));
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const call = { method, path: url.pathname.replace(/^\/api\/v1/, ''), params, headers };
    calls.push(call);
    const signal = init.signal ?? undefined;
    const pending = handler(call, signal) ?? success();
    if (pending === 'network-error') throw new TypeError('fetch failed');
    const answer: { status?: number; body: Json } = await pending;
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
}

export interface FakeStore {
  store: ChatStore;
  calls: Call[];
  /** Backoff waits the store asked for, in ms. */
  sleeps: number[];
  /** Timers the store set (typing expiry, mark-read batching); run them by hand. */
  timers: { fn: () => void; ms: number; cleared: boolean }[];
  runTimers(ms?: number): void;
}

export function fakeStore(
  handler: Handler,
  options: { now?: number; openingNarrow?: StoreOptions['openingNarrow'] } = {},
): FakeStore {
  const calls: Call[] = [];
  const sleeps: number[] = [];
  const timers: FakeStore['timers'] = [];
  const api = new ZulipApi({
    baseUrl: 'http://chat.test',
    credentials: { email: 'member@example.com', apiKey: 'key' },
    fetch: fakeFetch(handler, calls),
  });
  const store = createChatStore(api, {
    openingNarrow: options.openingNarrow,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    now: () => (options.now ?? 1_700_000_000) * 1000,
    setTimer: (fn, ms) => {
      const timer = { fn, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  return {
    store,
    calls,
    sleeps,
    timers,
    runTimers(ms = Number.POSITIVE_INFINITY) {
      for (const timer of timers.splice(0)) {
        if (timer.cleared) continue;
        if (timer.ms <= ms) timer.fn();
        else timers.push(timer);
      }
    },
  };
}

export function loadRecording(scenario: string): Recording {
  return JSON.parse(readFileSync(fixturePath(scenario), 'utf8')) as Recording;
}

/**
 * Replays a recording: register answers with the recorded state, the first
 * long-poll with every recorded event (or one batch per poll; a promise
 * holds its poll until the test resolves it), later polls hang. `extra` answers anything else first.
 */
export function replayHandler(
  recording: Recording,
  extra: Handler = () => undefined,
  batches: (Json[] | Promise<Json[]>)[] = [recording.events],
): Handler {
  let poll = 0;
  return (call, signal) => {
    const answer = extra(call, signal);
    if (answer !== undefined) return answer;
    if (call.path === '/register') return success(recording.register);
    if (call.path === '/events' && call.method === 'GET') {
      const events = batches[poll++];
      if (events === undefined) return hang(signal);
      return Promise.resolve(events).then((list) =>
        success({ events: list, queue_id: recording.register.queue_id }),
      );
    }
    if (call.path === '/messages' && call.method === 'GET') {
      return success({
        messages: [],
        found_oldest: true,
        found_newest: true,
        found_anchor: false,
        anchor: 0,
      });
    }
    return success();
  };
}

/** Resolves when the state satisfies `test`. */
export function until(
  store: ChatStore,
  test: (s: ChatState) => boolean,
  ms = 3000,
): Promise<ChatState> {
  return new Promise((resolve, reject) => {
    if (test(store.getState())) return resolve(store.getState());
    const timer = setTimeout(() => {
      stop();
      reject(new Error('the state never matched'));
    }, ms);
    const stop = store.subscribe(() => {
      if (test(store.getState())) {
        clearTimeout(timer);
        stop();
        resolve(store.getState());
      }
    });
  });
}

/** Resolves once the store has asked for `count` event polls (so every earlier batch is applied). */
export async function polls(fake: FakeStore, count: number, ms = 3000): Promise<void> {
  const started = Date.now();
  while (fake.calls.filter((c) => c.path === '/events' && c.method === 'GET').length < count) {
    if (Date.now() - started > ms) throw new Error(`only ${count - 1} polls`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
