/**
 * Records what the real server sends the chat view: for each scenario, the
 * member's `POST /register` answer (with the chat's own parameters) and the
 * events of scripted actions by two users (the member and the admin, plus a
 * moderator for group DMs). The unit tests replay these recordings into the
 * store with a fake fetch; fixtures.test.ts re-records and compares, so they
 * cannot silently drift from the server. With
 * RECORD_CHAT_EVENTS=1, fixtures.test.ts rewrites test/fixtures/chat-events/ (then
 * `npx biome format --write test/fixtures/chat-events`).
 */
import { CLIENT_CAPABILITIES } from '../../../renderer/src/chat/data/store.js';
import { createChannel } from '../../helpers/fixtures.js';
import type { ApiClient, TestServer } from '../../helpers/server.js';

// biome-ignore lint/suspicious/noExplicitAny: recorded JSON
type Json = any;

export interface Recording {
  scenario: string;
  /** The member's register answer. */
  register: Json;
  /** Every event the member's queue got, in order. */
  events: Json[];
  /** Ids the scenario made (messages, channels, users), by name, for the assertions. */
  ids: Record<string, number>;
}

/** The chat's register parameters (store.ts sends the same). */
export const CHAT_REGISTER_PARAMS = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  include_subscribers: false,
  client_capabilities: CLIENT_CAPABILITIES,
};

async function ok(promise: Promise<{ status: number; body: Json }>): Promise<Json> {
  const res = await promise;
  if (res.status !== 200) throw new Error(`recording step failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function send(client: ApiClient, params: Record<string, unknown>): Promise<number> {
  return (await ok(client.post('/messages', params))).id;
}

interface Scene {
  t: TestServer;
  member: ApiClient;
  admin: ApiClient;
  ids: Record<string, number>;
  queueId: string;
}

type Script = (scene: Scene) => Promise<void>;

/** Messages in channels and DMs: sends, edits, moves, deletions, flags, reactions, widgets. */
const messages: Script = async ({ t, member, admin, ids, queueId }) => {
  const general = ids.general!;
  ids.lunch1 = await send(admin, { type: 'stream', to: general, topic: 'lunch', content: 'soup?' });
  ids.lunch2 = await send(admin, {
    type: 'stream',
    to: general,
    topic: 'Lunch',
    content: 'or salad',
  });
  ids.mention = await send(admin, {
    type: 'stream',
    to: general,
    topic: 'plans',
    content: '@**Mel Member** look',
  });
  ids.wildcard = await send(admin, {
    type: 'stream',
    to: general,
    topic: 'plans',
    content: '@**all** hi',
  });
  ids.dm = await send(admin, { type: 'direct', to: [t.accounts.member.id], content: 'psst' });
  ids.group = await send(admin, {
    type: 'direct',
    to: [t.accounts.member.id, t.accounts.moderator.id],
    content: 'hello both',
  });
  ids.own = await send(member, {
    type: 'stream',
    to: general,
    topic: 'lunch',
    content: 'mine',
    // As the chat sends: the queue and a local id, which the event echoes back.
    queue_id: queueId,
    local_id: '100.001',
  });
  await ok(admin.patch(`/messages/${ids.lunch1}`, { content: 'soup? **yes**' }));
  await ok(member.post('/messages/flags', { messages: [ids.lunch1], op: 'add', flag: 'read' }));
  await ok(member.post('/messages/flags', { messages: [ids.lunch2], op: 'add', flag: 'starred' }));
  await ok(member.post(`/messages/${ids.lunch2}/reactions`, { emoji_name: 'tada' }));
  await ok(admin.post(`/messages/${ids.lunch2}/reactions`, { emoji_name: 'tada' }));
  await ok(admin.delete(`/messages/${ids.lunch2}/reactions`, { emoji_name: 'tada' }));
  // The whole topic moves (and is renamed): every message of it follows.
  await ok(
    admin.patch(`/messages/${ids.lunch1}`, { topic: 'dinner', propagate_mode: 'change_all' }),
  );
  await ok(admin.delete(`/messages/${ids.wildcard}`));
  await ok(member.post('/messages/flags', { messages: [ids.lunch1], op: 'remove', flag: 'read' }));
  ids.poll = await send(admin, {
    type: 'stream',
    to: general,
    topic: 'vote',
    content: '/poll Tea or coffee?',
  });
  await ok(
    member.post('/submessage', {
      message_id: ids.poll,
      msg_type: 'widget',
      content: JSON.stringify({ type: 'new_option', idx: 1, option: 'Cocoa' }),
    }),
  );
};

/** Muting: topics, channels, followed topics, users; subscription changes. */
const muting: Script = async ({ t, member, admin, ids }) => {
  const general = ids.general!;
  const random = ids.random!;
  ids.quiet1 = await send(admin, { type: 'stream', to: general, topic: 'quiet', content: 'a' });
  ids.loud1 = await send(admin, { type: 'stream', to: general, topic: 'loud', content: 'b' });
  ids.random1 = await send(admin, { type: 'stream', to: random, topic: 'noise', content: 'c' });
  ids.random2 = await send(admin, { type: 'stream', to: random, topic: 'signal', content: 'd' });
  ids.dm = await send(admin, { type: 'direct', to: [t.accounts.member.id], content: 'e' });
  await ok(
    member.post('/user_topics', { stream_id: general, topic: 'quiet', visibility_policy: 1 }),
  );
  await ok(
    member.post('/user_topics', { stream_id: general, topic: 'loud', visibility_policy: 3 }),
  );
  await ok(
    member.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([{ stream_id: random, property: 'is_muted', value: true }]),
    }),
  );
  await ok(
    member.post('/user_topics', { stream_id: random, topic: 'signal', visibility_policy: 2 }),
  );
  ids.quiet2 = await send(admin, { type: 'stream', to: general, topic: 'quiet', content: 'f' });
  await ok(member.post(`/users/me/muted_users/${t.accounts.moderator.id}`));
  ids.mutedDm = await send(t.as('moderator'), {
    type: 'direct',
    to: [t.accounts.member.id],
    content: 'g',
  });
  await ok(
    member.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([
        { stream_id: general, property: 'pin_to_top', value: true },
      ]),
    }),
  );
};

/** People and settings: presence, statuses, typing, users, realm, drafts, channels. */
const people: Script = async ({ t, member, admin, ids }) => {
  const general = ids.general!;
  await ok(admin.post('/users/me/presence', { status: 'active' }));
  await ok(admin.post('/users/me/status', { status_text: 'at lunch', emoji_name: 'taco' }));
  await ok(
    admin.post('/typing', {
      type: 'direct',
      op: 'start',
      to: JSON.stringify([t.accounts.member.id]),
    }),
  );
  await ok(
    admin.post('/typing', { type: 'stream', op: 'start', stream_id: general, topic: 'lunch' }),
  );
  await ok(
    admin.post('/typing', {
      type: 'direct',
      op: 'stop',
      to: JSON.stringify([t.accounts.member.id]),
    }),
  );
  await ok(admin.patch('/settings', { full_name: 'Ada Lovelace' }));
  await ok(member.patch('/settings', { enter_sends: true }));
  await ok(admin.patch('/realm', { name: 'Renamed Org' }));
  const draft = await ok(
    member.post('/drafts', {
      drafts: JSON.stringify([
        { type: 'stream', to: [general], topic: 'later', content: 'draft', timestamp: 1700000000 },
      ]),
    }),
  );
  ids.draft = draft.ids[0];
  await ok(
    member.patch(`/drafts/${ids.draft}`, {
      draft: JSON.stringify({
        type: 'stream',
        to: [general],
        topic: 'later',
        content: 'draft 2',
        timestamp: 1700000001,
      }),
    }),
  );
  await ok(
    admin.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'announce', description: 'News' }]),
      principals: JSON.stringify([t.accounts.member.id, t.accounts.admin.id]),
    }),
  );
  await ok(admin.patch(`/streams/${general}`, { description: 'All **things**' }));
  await ok(
    member.delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['announce']) }),
  );
  await ok(member.delete(`/drafts/${ids.draft}`));
  const group = await ok(
    admin.post('/user_groups/create', {
      name: 'cooks',
      description: 'Kitchen',
      members: JSON.stringify([t.accounts.member.id]),
    }),
  );
  ids.group = group.group_id;
  await ok(
    admin.post(`/user_groups/${ids.group}/members`, {
      add: JSON.stringify([t.accounts.moderator.id]),
      delete: JSON.stringify([t.accounts.member.id]),
    }),
  );
  await ok(admin.patch(`/user_groups/${ids.group}`, { name: 'chefs' }));
  ids.late = await send(admin, { type: 'stream', to: general, topic: 'lunch', content: 'late' });
};

export const scenarios: Record<string, Script> = { messages, muting, people };

/** Runs one scenario on a fresh server and returns what the member's queue saw. */
export async function recordScenario(t: TestServer, scenario: string): Promise<Recording> {
  const member = t.as('member');
  const admin = t.as('admin');
  const ids: Record<string, number> = {
    general: createChannel(t, {
      name: `general-${scenario}`,
      subscribers: [t.accounts.member.id, t.accounts.admin.id, t.accounts.moderator.id],
    }),
    random: createChannel(t, {
      name: `random-${scenario}`,
      subscribers: [t.accounts.member.id, t.accounts.admin.id],
    }),
    member: t.accounts.member.id,
    admin: t.accounts.admin.id,
    moderator: t.accounts.moderator.id,
  };
  // An unread message from before the queue, so register's unread_msgs has one.
  ids.early = await send(admin, {
    type: 'stream',
    to: ids.general,
    topic: 'early',
    content: 'before',
  });
  const register = await ok(member.post('/register', CHAT_REGISTER_PARAMS));
  await scenarios[scenario]!({ t, member, admin, ids, queueId: register.queue_id });
  const events: Json[] = [];
  let lastEventId = -1;
  for (;;) {
    const answer = await ok(
      member.get('/events', {
        queue_id: register.queue_id,
        last_event_id: lastEventId,
        dont_block: true,
      }),
    );
    if (answer.events.length === 0) break;
    events.push(...answer.events);
    lastEventId = answer.events[answer.events.length - 1].id;
  }
  return { scenario, register, events, ids };
}

/**
 * What must stay true of a recording for the replay tests to mean
 * something: the register keys, and each event's type, op and keys.
 */
export function keyFacts(recording: Recording) {
  return {
    register: Object.keys(recording.register).sort(),
    events: recording.events.map((event) => {
      const facts: Record<string, unknown> = { type: event.type, keys: Object.keys(event).sort() };
      if ('op' in event) facts.op = event.op;
      if (event.type === 'message') facts.messageKeys = Object.keys(event.message).sort();
      return facts;
    }),
  };
}

export const fixturePath = (scenario: string) =>
  new URL(`../../fixtures/chat-events/${scenario}.json`, import.meta.url).pathname;
