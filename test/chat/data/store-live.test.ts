/**
 * The store against the real server: register, the long-poll, the feed's
 * list, unread counts, sending with local echo, reading and logging in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZulipApi } from '../../../renderer/src/chat/data/api.js';
import type { ChatState, ChatStore } from '../../../renderer/src/chat/data/model.js';
import { logIn } from '../../../renderer/src/chat/data/session.js';
import { createChatStore } from '../../../renderer/src/chat/data/store.js';
import { unreadInTopic } from '../../../renderer/src/chat/data/unread.js';
import { createChannel } from '../../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../../helpers/messages.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../../helpers/server.js';

let t: TestServer;
let general: number;

beforeAll(async () => {
  t = await startTestServer();
  general = createChannel(t, {
    name: 'general',
    subscribers: [t.accounts.member.id, t.accounts.admin.id],
  });
});
afterAll(() => t?.close());

/** Each store's current queue, seen in the register answers its fetch receives. */
const queues = new Map<ChatStore, string>();

function storeFor(who: 'member' | 'admin' | 'guest'): ChatStore {
  const account = t.accounts[who];
  let store: ChatStore | null = null;
  const watching: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (String(input).endsWith('/api/v1/register') && response.ok) {
      const body = (await response.clone().json()) as { queue_id: string };
      if (store) queues.set(store, body.queue_id);
    }
    return response;
  };
  const api = new ZulipApi({
    baseUrl: t.url,
    credentials: { email: account.email, apiKey: account.apiKey },
    fetch: watching,
  });
  store = createChatStore(api);
  return store;
}

/** Resolves when the state satisfies `test` (checked after every change). */
function until(store: ChatStore, test: (s: ChatState) => boolean, ms = 5000): Promise<ChatState> {
  return new Promise((resolve, reject) => {
    if (test(store.getState())) return resolve(store.getState());
    const timer = setTimeout(() => {
      stop();
      reject(new Error('state never matched'));
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

describe('the chat store on the real server', () => {
  it('logs in with a password to a session, connects with it, and logs out', async () => {
    // A browser's cookie jar, in small: what the server sets goes back with each request.
    const jar = new Map<string, string>();
    const browserFetch: typeof fetch = async (input, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
      const response = await fetch(input, { ...init, headers });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        const value = pair.slice(eq + 1);
        if (value === '') jar.delete(pair.slice(0, eq));
        else jar.set(pair.slice(0, eq), value);
      }
      return response;
    };
    const api = new ZulipApi({
      baseUrl: t.url,
      csrfToken: () => jar.get('hearth_csrf') ?? null,
      fetch: browserFetch,
    });
    expect(await logIn(t.accounts.member.email, FIXTURE_PASSWORD, api)).toEqual({
      userId: t.accounts.member.id,
    });
    expect([...jar.keys()].sort()).toEqual(['hearth_csrf', 'hearth_session']);
    const store = createChatStore(api);
    try {
      const state = await until(store, (s) => s.connection === 'connected');
      expect(state.ownUserId).toBe(t.accounts.member.id);
      const session = jar.get('hearth_session');
      await store.actions.logOut();
      expect(store.getState().connection).toBe('logged-out');
      expect(jar.size).toBe(0);
      // The session is over on the server, not only forgotten here.
      const replay = await fetch(`${t.url}/api/v1/users/me`, {
        headers: { cookie: `hearth_session=${session}` },
      });
      expect(replay.status).toBe(401);
    } finally {
      store.close();
    }
    await expect(
      logIn(t.accounts.member.email, 'wrong', new ZulipApi({ baseUrl: t.url })),
    ).rejects.toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED' });
  });

  it('registers, shows a narrow, counts unreads live and reads them', async () => {
    const before = await sendToChannel(t, 'admin', general, 'lunch', 'first');
    const store = storeFor('member');
    try {
      let state = await until(store, (s) => s.connection === 'connected' && s.recentLoaded);
      expect(state.ownUserId).toBe(t.accounts.member.id);
      expect(state.subscriptions.get(general)?.name).toBe('general');
      expect(state.unread.channels.get(general)).toBe(1);
      expect(state.recent[0]).toMatchObject({ channelId: general, topic: 'lunch', maxId: before });

      store.actions.showNarrow([
        { operator: 'channel', operand: general },
        { operator: 'topic', operand: 'lunch' },
      ]);
      state = await until(store, (s) => s.list !== null && !s.list.loadingNewer);
      expect(state.list).toMatchObject({ ids: [before], anchorId: before, foundNewest: true });

      const live = await sendToChannel(t, 'admin', general, 'LUNCH', 'second');
      const dm = await sendDirect(t, 'admin', [t.accounts.member.id]);
      state = await until(store, (s) => s.messages.has(dm) && s.list!.ids.includes(live));
      expect(unreadInTopic(state.unread, general, 'lunch')).toBe(2);
      expect(state.unread.directs.get(String(t.accounts.admin.id))).toBe(1);
      expect(state.unread.total).toBe(3);

      store.actions.markRead([before, live]);
      expect(store.getState().unread.total).toBe(1);
      // The server confirms: another tab's store sees them read.
      const other = storeFor('member');
      try {
        await until(other, (s) => s.connection === 'connected' && s.unread.total === 1);
      } finally {
        other.close();
      }
    } finally {
      store.close();
    }
  });

  it('sends with a local echo that the server message replaces', async () => {
    const store = storeFor('member');
    try {
      await until(store, (s) => s.connection === 'connected');
      store.actions.showNarrow([{ operator: 'channel', operand: general }]);
      await until(store, (s) => s.list?.foundNewest === true && !s.list.loadingNewer);
      const sending = store.actions.send(
        { kind: 'channel', channelId: general, topic: 'echo' },
        'hi *there*',
      );
      const echoed = store.getState();
      const echoId = echoed.list!.ids[echoed.list!.ids.length - 1]!;
      expect(Number.isInteger(echoId)).toBe(false);
      expect(echoed.messages.get(echoId)).toMatchObject({
        content: '<p>hi *there*</p>',
        flags: ['read'],
      });
      const id = await sending;
      const state = await until(store, (s) => s.list!.ids.includes(id));
      expect(state.list!.ids).not.toContain(echoId);
      expect(state.messages.get(id)?.content).toBe('<p>hi <em>there</em></p>');
      expect(state.unread.total).toBe(store.getState().unread.total);
    } finally {
      store.close();
    }
  });

  it('re-registers when the server drops its queue, and keeps receiving', async () => {
    const store = storeFor('member');
    try {
      await until(store, (s) => s.connection === 'connected');
      const polled = await waitForQueue(store);
      queues.delete(store);
      // Another client with the same key deletes the queue, as a server restart would lose it.
      const res = await t.as('member').delete('/events', { queue_id: polled });
      expect(res.status).toBe(200);
      const id = await sendToChannel(t, 'admin', general, 'after', 'still here');
      await until(store, (s) => s.messages.has(id), 10_000);
      expect(await waitForQueue(store)).not.toBe(polled);
    } finally {
      store.close();
    }
  });

  it('keeps general chat (the empty topic) as "" in fetches and events alike', async () => {
    const fetched = await sendToChannel(t, 'admin', general, '', 'no topic');
    const store = storeFor('member');
    try {
      await until(store, (s) => s.connection === 'connected');
      store.actions.showNarrow([
        { operator: 'channel', operand: general },
        { operator: 'topic', operand: '' },
      ]);
      await until(store, (s) => s.list?.ids.includes(fetched) === true);
      expect(store.getState().messages.get(fetched)?.subject).toBe('');
      const live = await sendToChannel(t, 'admin', general, '', 'still none');
      const state = await until(store, (s) => s.list?.ids.includes(live) === true);
      expect(state.messages.get(live)?.subject).toBe('');
      store.actions.loadTopics(general);
      const withTopics = await until(store, (s) => s.topics.has(general));
      expect(withTopics.topics.get(general)?.map((topic) => topic.name)).toContain('');
    } finally {
      store.close();
    }
  });

  it('registers afresh when whom a guest may see changes, deleting the old queue', async () => {
    // Shares nothing with the guest: hidden from them once access is limited.
    const hal = await t.createMember('Hal Hidden');
    const groupId = async (name: string): Promise<number> =>
      (await t.as('owner').get('/user_groups')).body.user_groups.find(
        (g: { name: string }) => g.name === name,
      ).id;
    const limitTo = async (name: string) =>
      expect(
        (
          await t
            .as('owner')
            .patch('/realm', { can_access_all_users_group: { new: await groupId(name) } })
        ).status,
      ).toBe(200);
    const store = storeFor('guest');
    try {
      await until(store, (s) => s.users.get(hal.id)?.full_name === 'Hal Hidden');
      const first = await waitForQueue(store);
      queues.delete(store);
      await limitTo('role:members');
      // No event says who is hidden now: only a new register does.
      await until(store, (s) => s.users.get(hal.id)?.full_name === 'Unknown user', 10_000);
      const second = await waitForQueue(store);
      expect(second).not.toBe(first);
      const old = await t
        .as('guest')
        .get('/events', { queue_id: first, last_event_id: -1, dont_block: true });
      expect(old.body.code).toBe('BAD_EVENT_QUEUE_ID');
      queues.delete(store);
      await limitTo('role:everyone');
      await until(store, (s) => s.users.get(hal.id)?.full_name === 'Hal Hidden', 10_000);
      expect(await waitForQueue(store)).not.toBe(second);
    } finally {
      store.close();
      await limitTo('role:everyone');
    }
  });

  it('logs out: the queue is deleted on the server', async () => {
    const store = storeFor('member');
    await until(store, (s) => s.connection === 'connected');
    const queue = await waitForQueue(store);
    await store.actions.logOut();
    expect(store.getState().connection).toBe('logged-out');
    const res = await t
      .as('member')
      .get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
    expect(res.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });
});

/** The queue the store registered last, as the server answered it. */
function waitForQueue(store: ChatStore): Promise<string> {
  return until(store, () => queues.has(store)).then(() => queues.get(store)!);
}
