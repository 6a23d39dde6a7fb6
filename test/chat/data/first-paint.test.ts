/**
 * What makes the first messages show early: register sent ahead by the
 * page's first script and taken by the store (ZulipApi head starts), and
 * the opening narrow's messages asked for as soon as register answers,
 * before the views have rendered and asked themselves.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, ZulipApi } from '../../../renderer/src/chat/data/api.js';
import { firstWindowParams } from '../../../renderer/src/chat/data/feed-window.js';
import type { Narrow } from '../../../renderer/src/chat/data/model.js';
import { REGISTER_PARAMS } from '../../../renderer/src/chat/data/register-params.js';
import {
  type Call,
  type FakeStore,
  failure,
  fakeFetch,
  fakeStore,
  type Handler,
  hang,
  loadRecording,
  success,
  until,
} from './fake-server.js';

const recording = loadRecording('people');
const general = recording.ids.general!;
const channel: Narrow = [{ operator: 'channel', operand: general }];
const credentials = { email: 'member@example.com', apiKey: 'key' };

function apiWith(handler: Handler, calls: Call[], who = credentials) {
  return new ZulipApi({
    baseUrl: 'http://chat.test',
    credentials: who,
    fetch: fakeFetch(handler, calls),
  });
}

const messagesAnswer = () =>
  success({ messages: [], found_oldest: true, found_newest: true, found_anchor: false, anchor: 0 });

describe('head starts', () => {
  it('the first call of the same request takes the answer sent ahead: one request in all', async () => {
    const calls: Call[] = [];
    let answers = 0;
    const api = apiWith(() => success({ queue_id: `q${++answers}` }), calls);
    api.headStart('POST', '/register', REGISTER_PARAMS);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/register' });
    expect(calls[0]!.params.client_capabilities).toBe(
      JSON.stringify(REGISTER_PARAMS.client_capabilities),
    );
    expect(await api.call('POST', '/register', REGISTER_PARAMS)).toMatchObject({ queue_id: 'q1' });
    expect(calls).toHaveLength(1);
    // Taken once: the next register is a request of its own.
    expect(await api.call('POST', '/register', REGISTER_PARAMS)).toMatchObject({ queue_id: 'q2' });
    expect(calls).toHaveLength(2);
  });

  it('is dropped by a first call that asks something else, or as someone else', async () => {
    const calls: Call[] = [];
    let answers = 0;
    const handler: Handler = () => success({ queue_id: `q${++answers}` });
    const api = apiWith(handler, calls);
    api.headStart('POST', '/register', REGISTER_PARAMS);
    expect(
      await api.call('POST', '/register', { ...REGISTER_PARAMS, slim_presence: false }),
    ).toEqual(expect.objectContaining({ queue_id: 'q2' }));
    // Dropped, not kept for a later call that would match.
    expect(await api.call('POST', '/register', REGISTER_PARAMS)).toMatchObject({ queue_id: 'q3' });

    const other = apiWith(handler, calls, { email: 'other@example.com', apiKey: 'key2' });
    api.headStart('POST', '/register', REGISTER_PARAMS);
    expect(await other.call('POST', '/register', REGISTER_PARAMS)).toMatchObject({
      queue_id: 'q5',
    });
    expect(calls).toHaveLength(5);
  });

  it('answers a call of another path as usual, and leaves the head start waiting', async () => {
    const calls: Call[] = [];
    const api = apiWith((call) => success({ path: call.path }), calls);
    api.headStart('POST', '/register', REGISTER_PARAMS);
    expect(await api.call('GET', '/users/me')).toMatchObject({ path: '/users/me' });
    expect(await api.call('POST', '/register', REGISTER_PARAMS)).toMatchObject({
      path: '/register',
    });
    expect(calls.map((c) => c.path)).toEqual(['/register', '/users/me']);
  });

  it('gives its taker the same errors a request of its own would', async () => {
    const calls: Call[] = [];
    const api = apiWith(() => failure(401, 'UNAUTHORIZED', 'Invalid API key'), calls);
    api.headStart('POST', '/register', REGISTER_PARAMS);
    const error = await api.call('POST', '/register', REGISTER_PARAMS).catch((err) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401, message: 'Invalid API key' });

    const offline = apiWith(() => 'network-error', calls);
    offline.headStart('POST', '/register', REGISTER_PARAMS);
    const lost = await offline.call('POST', '/register', REGISTER_PARAMS).catch((err) => err);
    expect(lost).toMatchObject({ code: 'NETWORK_ERROR', status: 0, isNetwork: true });
  });
});

describe('the page’s first script', () => {
  afterEach(() => {
    new ZulipApi({ baseUrl: 'http://chat.test' }).forgetHeadStarts();
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** Runs boot.js on a page whose cookies hold `csrf` (a session) or nothing. */
  const boot = async (csrf: string | null, hash = '', handler?: Handler) => {
    const calls: Call[] = [];
    vi.stubGlobal('location', { origin: 'http://chat.test', hash });
    vi.stubGlobal('document', {
      cookie: csrf ? `theme=dark; hearth_csrf=${csrf}` : 'theme=dark',
      // It sets the colour scheme first (settings/appearance.ts).
      documentElement: { dataset: {} },
    });
    const answer: Handler = (call) =>
      call.path === '/register' ? success({ queue_id: 'early' }) : messagesAnswer();
    vi.stubGlobal('fetch', fakeFetch(handler ?? answer, calls));
    vi.resetModules();
    await import('../../../renderer/src/chat/boot.js');
    // Let register's answer arrive (what follows it is sent then).
    await new Promise((resolve) => setTimeout(resolve, 10));
    return calls;
  };
  const saved = 'the-csrf-token';
  /** The store's own client on that page. */
  const pageApi = async () => {
    const { ZulipApi: Api } = await import('../../../renderer/src/chat/data/api.js');
    return new Api({ csrfToken: () => saved });
  };
  /** A request's parameters as the fake server reads them from the wire. */
  const onTheWire = (params: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );

  it('sends the store’s register with the session, for the store to take', async () => {
    const calls = await boot(saved);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/register' });
    expect(calls[0]!.params).toEqual(onTheWire(REGISTER_PARAMS));
    // The session's cookie goes by itself; its CSRF token goes in the header, no key anywhere.
    expect(calls[0]!.headers).toEqual({ 'x-csrftoken': saved });
    // The store's own register (same module instance as boot's) takes it.
    const api = await pageApi();
    expect(await api.call('POST', '/register', REGISTER_PARAMS)).toMatchObject({
      queue_id: 'early',
    });
    expect(calls).toHaveLength(1);
  });

  it('sends nothing before anyone has logged in', async () => {
    expect(await boot(null, '#narrow/channel/9-infra')).toEqual([]);
  });

  it('asks for the feed the address names once register has answered', async () => {
    const calls = await boot(saved, '#narrow/channel/9-infra/topic/outage');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /register', 'GET /messages']);
    // The channel's id from its slug, as register's state will resolve it.
    const narrow: Narrow = [
      { operator: 'channel', operand: 9 },
      { operator: 'topic', operand: 'outage' },
    ];
    expect(calls[1]!.params).toEqual(onTheWire(firstWindowParams(narrow)));
    // The store's fetch of the same window takes it.
    await (await pageApi()).call('GET', '/messages', firstWindowParams(narrow));
    expect(calls).toHaveLength(2);
  });

  it('asks for no feed for a view without one, or when register failed', async () => {
    expect((await boot(saved, '#inbox')).map((c) => c.path)).toEqual(['/register']);
    const refused = await boot(saved, '#narrow/channel/9-infra', () =>
      failure(401, 'UNAUTHORIZED'),
    );
    expect(refused.map((c) => c.path)).toEqual(['/register']);
  });
});

describe('the opening narrow', () => {
  let fake: FakeStore | null = null;
  afterEach(() => {
    fake?.store.close();
    fake = null;
  });

  const opening = (narrow: Narrow | null, asked: number[] = []) =>
    fakeStore(
      (call, signal) => {
        if (call.path === '/register') return success(recording.register);
        if (call.path === '/events' && call.method === 'GET') return hang(signal);
        if (call.path === '/messages') return messagesAnswer();
        return undefined;
      },
      {
        openingNarrow: (state) => {
          asked.push(state.ownUserId);
          return narrow;
        },
      },
    );
  const feedFetches = (f: FakeStore) =>
    f.calls.filter((c) => c.path === '/messages' && c.params.anchor !== 'newest');

  it('is fetched as soon as register answers, before anything else is asked', async () => {
    const asked: number[] = [];
    fake = opening(channel, asked);
    const state = await until(fake.store, (s) => s.list !== null);
    // Asked with register's state (channel names resolve by then).
    expect(asked).toEqual([recording.ids.member]);
    expect(state.list?.narrow).toEqual(channel);
    const afterRegister = fake.calls.slice(fake.calls.findIndex((c) => c.path === '/register') + 1);
    expect(afterRegister[0]).toMatchObject({ method: 'GET', path: '/messages' });
    expect(JSON.parse(afterRegister[0]!.params.narrow!)).toEqual(channel);
    expect(afterRegister[0]!.params.anchor).toBe('first_unread');
  });

  it('the views asking for it then is no second fetch; asking again reloads as before', async () => {
    fake = opening(channel);
    await until(fake.store, (s) => s.list?.loadingNewer === false);
    fake.store.actions.showNarrow([{ operator: 'channel', operand: general }]);
    expect(feedFetches(fake)).toHaveLength(1);
    fake.store.actions.showNarrow(channel);
    await until(fake.store, (s) => s.list?.loadingNewer === false);
    expect(feedFetches(fake)).toHaveLength(2);
  });

  it('another narrow asked first is fetched, and the opening answer is not shown', async () => {
    fake = opening(channel);
    await until(fake.store, (s) => s.list !== null);
    const topic: Narrow = [...channel, { operator: 'topic', operand: 'lunch' }];
    fake.store.actions.showNarrow(topic);
    const state = await until(fake.store, (s) => s.list?.loadingNewer === false);
    expect(state.list?.narrow).toEqual(topic);
    expect(feedFetches(fake)).toHaveLength(2);
    // The opening narrow is forgotten: asking for it now loads it.
    fake.store.actions.showNarrow(channel);
    await until(fake.store, (s) => s.list?.narrow === channel && s.list.loadingNewer === false);
    expect(feedFetches(fake)).toHaveLength(3);
  });

  it('forgets head starts nobody took once register is in: a later ask gets fresh messages', async () => {
    fake = opening(null);
    // As if the page's first script had guessed a feed the address did not mean.
    fake.store.api.headStart('GET', '/messages', firstWindowParams(channel));
    await until(fake.store, (s) => s.ownUserId !== 0);
    fake.store.actions.showNarrow(channel);
    await until(fake.store, (s) => s.list?.loadingNewer === false);
    expect(feedFetches(fake)).toHaveLength(2);
  });

  it('a view with no feed fetches nothing early', async () => {
    fake = opening(null);
    await until(fake.store, (s) => s.recentLoaded);
    expect(feedFetches(fake)).toHaveLength(0);
    expect(fake.store.getState().list).toBeNull();
  });
});
