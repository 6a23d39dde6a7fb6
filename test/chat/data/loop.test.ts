/**
 * The store's event loop and actions against a fake server: re-registering
 * a lost queue without blanking the feed, backing off on network errors,
 * logging out on 401, and the requests the actions make.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../renderer/src/chat/data/model.js';
import {
  type Call,
  type FakeStore,
  failure,
  fakeStore,
  hang,
  type Json,
  loadRecording,
  polls,
  success,
  until,
} from './fake-server.js';

const recording = loadRecording('people');
const { ids } = recording;
const general = ids.general!;
const member = ids.member!;

function channelMessage(id: number, topic = 'lunch', flags: string[] = []): Message {
  return {
    id,
    type: 'stream',
    sender_id: ids.admin!,
    sender_full_name: 'Ada Admin',
    sender_email: 'admin@example.com',
    avatar_url: null,
    content: `<p>${id}</p>`,
    stream_id: general,
    subject: topic,
    display_recipient: `general-people`,
    timestamp: 1_700_000_000,
    flags,
    reactions: [],
    submessages: [],
  };
}

const messagesAnswer = (messages: Message[], extra: Json = {}) =>
  success({
    messages,
    found_oldest: true,
    found_newest: true,
    found_anchor: true,
    anchor: messages[0]?.id ?? 0,
    ...extra,
  });

const registerAnswer = (queueId: string, unread: number[] = []) =>
  success({
    ...recording.register,
    queue_id: queueId,
    last_event_id: -1,
    unread_msgs: {
      pms: [],
      huddles: [],
      mentions: [],
      streams: unread.length
        ? [{ stream_id: general, topic: 'lunch', unread_message_ids: unread }]
        : [],
      count: unread.length,
      old_unreads_missing: false,
    },
  });

const calledAt = (fake: FakeStore, path: string, method = 'POST'): Call[] =>
  fake.calls.filter((c) => c.path === path && c.method === method);

/** Waits for something that is not in the state (requests made). */
async function waitFor(test: () => boolean, ms = 3000): Promise<void> {
  const started = Date.now();
  while (!test()) {
    if (Date.now() - started > ms) throw new Error('never happened');
    await new Promise((r) => setTimeout(r, 5));
  }
}

let fake: FakeStore | null = null;
afterEach(() => {
  fake?.store.close();
  fake = null;
});

describe('the event loop', () => {
  it('re-registers a lost queue and reloads the feed, keeping it on screen meanwhile', async () => {
    let registers = 0;
    let fetches = 0;
    let releaseReload: (answer: Json) => void = () => {};
    fake = fakeStore((call, signal) => {
      if (call.path === '/register') return registerAnswer(`queue-${++registers}`);
      if (call.path === '/events') {
        if (call.params.queue_id === 'queue-1') {
          // Held until the feed has loaded, then the queue is gone (the server restarted).
          return until(fake!.store, (s) => s.list?.ids.length === 1).then(() =>
            failure(400, 'BAD_EVENT_QUEUE_ID', 'Bad event queue ID: queue-1'),
          );
        }
        return hang(signal);
      }
      if (call.path === '/messages' && call.params.anchor !== 'newest') {
        fetches++;
        if (fetches === 1) return messagesAnswer([channelMessage(10)]);
        return new Promise((resolve) => {
          releaseReload = resolve;
        });
      }
      return undefined;
    });
    await until(fake.store, (s) => s.connection === 'connected');
    fake.store.actions.showNarrow([{ operator: 'channel', operand: general }]);
    await waitFor(() => registers === 2 && fetches === 2);
    // The old list stays while the new one loads.
    expect(fake.store.getState().list?.ids).toEqual([10]);
    expect(fake.store.getState().messages.get(10)).toBeDefined();
    releaseReload(messagesAnswer([channelMessage(10), channelMessage(11)]));
    const state = await until(fake.store, (s) => s.list?.ids.length === 2);
    expect(state.list).toMatchObject({ ids: [10, 11], loadingNewer: false, error: null });
    expect(state.connection).toBe('connected');
    await polls(fake, 2);
    expect(calledAt(fake, '/events', 'GET').map((c) => c.params.queue_id)).toEqual([
      'queue-1',
      'queue-2',
    ]);
  });

  it('drops Recent conversations whose messages were deleted while the queue was lost', async () => {
    let registers = 0;
    fake = fakeStore((call, signal) => {
      if (call.path === '/register') return registerAnswer(`queue-${++registers}`);
      if (call.path === '/events' && call.method === 'GET') {
        if (call.params.queue_id === 'queue-1') {
          return until(fake!.store, (s) => s.list?.ids.length === 2 && s.recent.length === 3).then(
            () => failure(400, 'BAD_EVENT_QUEUE_ID', 'Bad event queue ID: queue-1'),
          );
        }
        return hang(signal);
      }
      if (call.path === '/messages' && call.params.anchor === 'newest') {
        // Meanwhile "old" and "gone" lost all their messages (the feed still shows 8 from "gone").
        return registers === 1
          ? messagesAnswer(
              [channelMessage(5, 'old'), channelMessage(8, 'gone'), channelMessage(10)],
              {
                found_oldest: false,
              },
            )
          : messagesAnswer([channelMessage(10)]);
      }
      if (call.path === '/messages') {
        return messagesAnswer(
          registers === 1 ? [channelMessage(8, 'gone'), channelMessage(10)] : [channelMessage(10)],
        );
      }
      return undefined;
    });
    await until(fake.store, (s) => s.recentLoaded);
    fake.store.actions.showNarrow([{ operator: 'channel', operand: general }]);
    const state = await until(fake.store, (s) => registers === 2 && s.recent.length === 1);
    expect(state.recent.map((entry) => entry.topic)).toEqual(['lunch']);
    expect(state.messages.has(8)).toBe(false);
    expect(state.list?.ids).toEqual([10]);
  });

  it('backs off from 1 s doubling to 30 s with jitter on network errors and server failures', async () => {
    let failures = 0;
    fake = fakeStore((call, signal) => {
      if (call.path === '/register') return registerAnswer('q');
      if (call.path === '/events') {
        failures++;
        if (failures <= 4) return 'network-error';
        if (failures <= 8) return failure(502, 'BAD_GATEWAY');
        return hang(signal);
      }
      return undefined;
    });
    await until(fake.store, (s) => s.connection === 'reconnecting');
    await polls(fake, 9);
    // random() is 0.5 here: each wait is three quarters of its ceiling.
    expect(fake.sleeps).toEqual([1, 2, 4, 8, 16, 30, 30, 30].map((s) => s * 750));
    const state = await until(fake.store, (s) => s.connection === 'reconnecting');
    expect(state.ownUserId).toBe(member);
  });

  it('comes back to connected after a successful poll', async () => {
    let polled = 0;
    fake = fakeStore((call, signal) => {
      if (call.path === '/register') return registerAnswer('q');
      if (call.path === '/events') {
        polled++;
        if (polled === 1) return 'network-error';
        if (polled === 2) return success({ events: [{ type: 'heartbeat', id: 0 }] });
        return hang(signal);
      }
      return undefined;
    });
    await polls(fake, 3);
    expect(fake.store.getState().connection).toBe('connected');
    // The heartbeat's id is acknowledged.
    expect(calledAt(fake, '/events', 'GET')[2]!.params.last_event_id).toBe('0');
  });

  it('confirms the connection with a poll that answers at once after a register or a retry', async () => {
    let polled = 0;
    let answerRetry: (answer: Json) => void = () => {};
    fake = fakeStore((call, signal) => {
      if (call.path === '/register') return registerAnswer(`queue-${polled}`);
      if (call.path !== '/events' || call.method !== 'GET') return undefined;
      polled++;
      if (polled === 2) return 'network-error';
      // Held so the test sees the banner state before the server answers.
      if (polled === 3) return new Promise((resolve) => (answerRetry = resolve));
      if (polled === 4) return failure(400, 'BAD_EVENT_QUEUE_ID', 'Bad event queue ID');
      // The server holds a blocking poll; a dont_block one answers with what it has.
      if (call.params.dont_block === 'true') return success({ events: [] });
      return hang(signal);
    });
    await polls(fake, 3);
    const events = () => calledAt(fake!, '/events', 'GET');
    // 1: after register (at once); 2: blocking, fails; 3: after the back-off (at once).
    expect(events().map((c) => c.params.dont_block)).toEqual(['true', undefined, 'true']);
    expect(fake.store.getState().connection).toBe('reconnecting');
    answerRetry(success({ events: [] }));
    await until(fake.store, (s) => s.connection === 'connected');
    // 4: blocking, the queue is gone; 5: after the re-register (at once); 6: blocking.
    await polls(fake, 6);
    expect(events().map((c) => c.params.dont_block)).toEqual([
      'true',
      undefined,
      'true',
      undefined,
      'true',
      undefined,
    ]);
    expect(events()[4]!.params.queue_id).toBe('queue-4');
    expect(fake.store.getState().connection).toBe('connected');
  });

  it('retries register itself when the server cannot be reached', async () => {
    let attempts = 0;
    fake = fakeStore((call, signal) => {
      if (call.path === '/register') return ++attempts < 3 ? 'network-error' : registerAnswer('q');
      if (call.path === '/events') return hang(signal);
      return undefined;
    });
    expect(fake.store.getState().connection).toBe('connecting');
    await until(fake.store, (s) => s.connection === 'connected');
    expect(attempts).toBe(3);
    expect(fake.sleeps).toHaveLength(2);
  });

  it('logs out on 401 and stops polling', async () => {
    fake = fakeStore((call) => {
      if (call.path === '/register') return registerAnswer('q');
      if (call.path === '/events') return failure(401, 'UNAUTHORIZED', 'Invalid API key');
      return undefined;
    });
    await until(fake.store, (s) => s.connection === 'logged-out');
    await new Promise((r) => setTimeout(r, 20));
    expect(calledAt(fake, '/events', 'GET')).toHaveLength(1);
    expect(fake.sleeps).toEqual([]);
  });

  it('ignores a server without the image-cookie endpoint', async () => {
    fake = fakeStore((call, signal) => {
      if (call.path === '/chat/session')
        return { status: 404, body: { result: 'error', code: 'NOT_FOUND', msg: 'x' } };
      if (call.path === '/events') return hang(signal);
      return call.path === '/register' ? registerAnswer('q') : undefined;
    });
    await until(fake.store, (s) => s.connection === 'connected');
  });
});

describe('actions', () => {
  /** A connected store whose feed shows `list` for channel general. */
  async function withFeed(
    list: Message[],
    unread: number[],
    extra: (call: Call) => Json = () => undefined,
  ) {
    fake = fakeStore((call, signal) => {
      const answer = extra(call);
      if (answer !== undefined) return answer;
      if (call.path === '/register') return registerAnswer('q', unread);
      if (call.path === '/events' && call.method === 'GET') return hang(signal);
      if (call.path === '/messages' && call.method === 'GET' && call.params.anchor !== 'newest') {
        return messagesAnswer(list);
      }
      return undefined;
    });
    await until(fake.store, (s) => s.connection === 'connected' && s.recentLoaded);
    fake.store.actions.showNarrow([{ operator: 'channel', operand: general }]);
    await until(fake.store, (s) => s.list?.loadingNewer === false);
    return fake;
  }

  it('fetches the feed around the first unread with the narrow as JSON', async () => {
    const f = await withFeed(
      [channelMessage(5, 'lunch', ['read']), channelMessage(6)],
      [6],
      (call) =>
        call.path === '/messages' && call.params.anchor === 'first_unread'
          ? messagesAnswer([channelMessage(5, 'lunch', ['read']), channelMessage(6)], {
              anchor: 6,
              found_oldest: false,
            })
          : undefined,
    );
    const fetch = calledAt(f, '/messages', 'GET').find((c) => c.params.anchor === 'first_unread')!;
    expect(fetch.params).toMatchObject({
      num_before: '50',
      num_after: '50',
      apply_markdown: 'true',
      allow_empty_topic_name: 'true',
      narrow: JSON.stringify([{ operator: 'channel', operand: general }]),
    });
    expect(f.store.getState().list).toMatchObject({
      ids: [5, 6],
      anchorId: 6,
      foundOldest: false,
      foundNewest: true,
    });
    // The recent-conversations load: the newest 400 of everything.
    expect(
      calledAt(f, '/messages', 'GET').find((c) => c.params.anchor === 'newest')?.params,
    ).toMatchObject({
      num_before: '400',
      num_after: '0',
      narrow: '[]',
    });
  });

  it('opens views that do not mark read (starred, search) at the newest message', async () => {
    const f = await withFeed([], []);
    f.store.actions.showNarrow([{ operator: 'is', operand: 'starred' }]);
    await waitFor(() =>
      calledAt(f, '/messages', 'GET').some((c) => c.params.narrow?.includes('starred')),
    );
    const fetch = calledAt(f, '/messages', 'GET').find((c) =>
      c.params.narrow?.includes('starred'),
    )!;
    expect(fetch.params.anchor).toBe('newest');
  });

  it('uses a near operand as the anchor and leaves it out of the narrow', async () => {
    const f = await withFeed([channelMessage(7)], []);
    f.store.actions.showNarrow([
      { operator: 'channel', operand: general },
      { operator: 'near', operand: 7 },
    ]);
    await until(f.store, (s) => s.list?.anchorId === 7);
    const fetch = calledAt(f, '/messages', 'GET').find((c) => c.params.anchor === '7')!;
    expect(JSON.parse(fetch.params.narrow!)).toEqual([{ operator: 'channel', operand: general }]);
  });

  it('opens a `with` link at its message and follows it to where it was moved', async () => {
    const f = await withFeed([channelMessage(7)], [], (call) =>
      call.path === '/messages' && call.params.anchor === '61'
        ? messagesAnswer([channelMessage(60, 'moved'), channelMessage(61, 'moved')], {
            anchor: 61,
          })
        : undefined,
    );
    const link = [
      { operator: 'channel', operand: general },
      { operator: 'topic', operand: 'lunch' },
      { operator: 'with', operand: 61 },
    ];
    f.store.actions.showNarrow(link);
    const state = await until(f.store, (s) => s.list?.anchorId === 61);
    const fetch = calledAt(f, '/messages', 'GET').find((c) => c.params.anchor === '61')!;
    // The server resolves `with` to the message's conversation too.
    expect(JSON.parse(fetch.params.narrow!)).toEqual(link);
    expect(state.list).toMatchObject({
      ids: [60, 61],
      narrow: [
        { operator: 'channel', operand: general },
        { operator: 'topic', operand: 'moved' },
        { operator: 'with', operand: 61 },
      ],
    });
  });

  it('loads older messages before the first one shown', async () => {
    const f = await withFeed([channelMessage(20), channelMessage(21)], [], (call) => {
      if (call.path !== '/messages' || call.params.anchor === 'newest') return undefined;
      if (call.params.anchor === '20')
        return messagesAnswer([channelMessage(18), channelMessage(19)]);
      return messagesAnswer([channelMessage(20), channelMessage(21)], { found_oldest: false });
    });
    f.store.actions.loadOlder();
    const state = await until(f.store, (s) => s.list?.ids.length === 4);
    expect(state.list).toMatchObject({
      ids: [18, 19, 20, 21],
      foundOldest: true,
      loadingOlder: false,
    });
    expect(
      calledAt(f, '/messages', 'GET').find((c) => c.params.anchor === '20')?.params,
    ).toMatchObject({
      include_anchor: 'false',
      num_before: '50',
      num_after: '0',
    });
  });

  it('marks read at once and sends one coalesced request', async () => {
    const f = await withFeed(
      [channelMessage(30), channelMessage(31), channelMessage(32)],
      [30, 31, 32],
    );
    expect(f.store.getState().unread.total).toBe(3);
    f.store.actions.markRead([30]);
    f.store.actions.markRead([31, 30]);
    expect(f.store.getState().unread.total).toBe(1);
    expect(f.store.getState().messages.get(30)?.flags).toContain('read');
    expect(calledAt(f, '/messages/flags')).toHaveLength(0);
    f.runTimers();
    await waitFor(() => calledAt(f, '/messages/flags').length === 1);
    expect(calledAt(f, '/messages/flags')[0]!.params).toEqual({
      messages: '[30,31]',
      op: 'add',
      flag: 'read',
    });
  });

  it('marks a narrow read with the endpoint Zulip has for it', async () => {
    let narrowBatches = 0;
    const f = await withFeed([], [], (call) => {
      if (call.path !== '/messages/flags/narrow') return undefined;
      narrowBatches++;
      return success({
        processed_count: 1000,
        updated_count: 3,
        first_processed_id: 1,
        last_processed_id: narrowBatches * 1000,
        found_oldest: true,
        found_newest: narrowBatches === 2,
      });
    });
    f.store.actions.markNarrowRead();
    await waitFor(() => calledAt(f, '/mark_stream_as_read').length === 1);
    expect(calledAt(f, '/mark_stream_as_read')[0]!.params).toEqual({ stream_id: String(general) });

    const show = async (narrow: Json) => {
      f.store.actions.showNarrow(narrow);
      await until(f.store, (s) => s.list?.narrow === narrow && s.list?.loadingNewer === false);
      f.store.actions.markNarrowRead();
    };
    await show([
      { operator: 'channel', operand: general },
      { operator: 'topic', operand: 'lunch' },
    ]);
    await waitFor(() => calledAt(f, '/mark_topic_as_read').length === 1);
    expect(calledAt(f, '/mark_topic_as_read')[0]!.params).toEqual({
      stream_id: String(general),
      topic_name: 'lunch',
    });
    await show([]);
    await waitFor(() => calledAt(f, '/mark_all_as_read').length === 1);
    await show([{ operator: 'is', operand: 'starred' }]);
    await waitFor(() => narrowBatches === 2);
    const [first, second] = calledAt(f, '/messages/flags/narrow');
    expect(first!.params).toMatchObject({
      anchor: 'oldest',
      include_anchor: 'true',
      op: 'add',
      flag: 'read',
    });
    expect(second!.params).toMatchObject({ anchor: '1000', include_anchor: 'false' });
  });

  it('sends with a local echo and marks it failed when the send fails', async () => {
    const f = await withFeed([channelMessage(40)], [], (call) =>
      call.path === '/messages' && call.method === 'POST'
        ? failure(400, 'BAD_REQUEST', 'Topic too long')
        : undefined,
    );
    const sending = f.store.actions.send(
      { kind: 'channel', channelId: general, topic: 'lunch' },
      'a <b>',
    );
    const echoId = f.store.getState().list!.ids[1]!;
    expect(echoId).toBeGreaterThan(40);
    expect(echoId).toBeLessThan(41);
    expect(f.store.getState().messages.get(echoId)).toMatchObject({
      content: '<p>a &#60;b&#62;</p>',
      flags: ['read'],
      sender_id: member,
      local_id: echoId.toFixed(3),
    });
    await expect(sending).rejects.toMatchObject({ message: 'Topic too long' });
    expect(f.store.getState().messages.get(echoId)?.failed).toBe(true);
    const post = calledAt(f, '/messages').find((c) => c.method === 'POST')!;
    expect(post.params).toMatchObject({
      type: 'stream',
      to: String(general),
      topic: 'lunch',
      content: 'a <b>',
      queue_id: 'q',
      local_id: echoId.toFixed(3),
      read_by_sender: 'true',
    });
  });

  it('sends a failed message again, or drops it', async () => {
    let attempts = 0;
    const f = await withFeed([channelMessage(50)], [], (call) => {
      if (call.path !== '/messages' || call.method !== 'POST') return undefined;
      attempts++;
      return attempts === 1 ? 'network-error' : success({ id: 51 });
    });
    const target = { kind: 'channel' as const, channelId: general, topic: 'lunch' };
    await expect(f.store.actions.send(target, 'again')).rejects.toMatchObject({ isNetwork: true });
    const failed = f.store.getState().list!.ids[1]!;
    await expect(f.store.actions.retrySend!(failed)).resolves.toBe(51);
    const state = f.store.getState();
    expect(state.messages.has(failed)).toBe(false);
    const echo = state.list!.ids[1]!;
    expect(state.messages.get(echo)?.content).toBe('<p>again</p>');
    expect(state.messages.get(echo)?.failed).toBeUndefined();
    expect(calledAt(f, '/messages').filter((c) => c.method === 'POST')[1]!.params.content).toBe(
      'again',
    );

    attempts = 0;
    await expect(f.store.actions.send(target, 'gone')).rejects.toBeDefined();
    const dropped = f.store.getState().list!.ids.at(-1)!;
    f.store.actions.discardFailed!(dropped);
    expect(f.store.getState().messages.has(dropped)).toBe(false);
    expect(f.store.getState().list!.ids).not.toContain(dropped);
  });

  it('sends direct messages to user ids', async () => {
    const f = await withFeed([], [], (call) =>
      call.path === '/messages' && call.method === 'POST' ? success({ id: 99 }) : undefined,
    );
    await expect(
      f.store.actions.send({ kind: 'direct', userIds: [ids.admin!] }, 'hi'),
    ).resolves.toBe(99);
    const post = calledAt(f, '/messages').find((c) => c.method === 'POST')!;
    expect(post.params).toMatchObject({ type: 'direct', to: `[${ids.admin}]` });
  });

  it('loads topic lists', async () => {
    const f = await withFeed([], [], (call) =>
      call.path === `/users/me/${general}/topics`
        ? success({ topics: [{ name: 'lunch', max_id: 12 }] })
        : undefined,
    );
    f.store.actions.loadTopics(general);
    const state = await until(f.store, (s) => s.topics.has(general));
    expect(state.topics.get(general)).toEqual([{ name: 'lunch', maxId: 12 }]);
  });

  it('reports presence at once and every 50 s, taking everyone elses back', async () => {
    const f = await withFeed([], [], (call) =>
      call.path === '/users/me/presence'
        ? success({
            presences: {
              [ids.admin!]: {
                active_timestamp: 1_700_000_000 - 30,
                idle_timestamp: 1_700_000_000 - 30,
              },
            },
          })
        : undefined,
    );
    await until(f.store, (s) => s.presence.get(ids.admin!)?.status === 'active');
    const pings = () => calledAt(f, '/users/me/presence');
    expect(pings()[0]!.params).toEqual({
      status: 'active',
      new_user_input: 'true',
      slim_presence: 'true',
    });
    const ping = f.timers.find((timer) => timer.ms === 50_000);
    expect(ping).toBeDefined();
    f.runTimers(50_000);
    await waitFor(() => pings().length === 2);
  });

  it('logs out: deletes the queue, ends the session, forgets its CSRF cookie', async () => {
    const written: string[] = [];
    const page = {
      get cookie() {
        return 'hearth_csrf=token';
      },
      set cookie(value: string) {
        written.push(value);
      },
    };
    Object.assign(globalThis, { document: page });
    try {
      const f = await withFeed([], []);
      await f.store.actions.logOut();
      expect(f.store.getState().connection).toBe('logged-out');
      expect(calledAt(f, '/events', 'DELETE')[0]?.params).toEqual({ queue_id: 'q' });
      expect(calledAt(f, '/chat/session', 'DELETE')).toHaveLength(1);
      expect(written).toEqual([expect.stringMatching(/^hearth_csrf=; Max-Age=0; Path=\/;/)]);
      // No timer outlives the session (presence pings, typing expiry, mark-read batches).
      expect(f.timers.filter((timer) => !timer.cleared)).toEqual([]);
    } finally {
      delete (globalThis as { document?: unknown }).document;
    }
  });
});
