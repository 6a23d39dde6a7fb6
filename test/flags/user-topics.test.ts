import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { Watcher } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { messageState } from './support.js';

let t: TestServer;
let open: number; // member, admin
let quiet: number; // member (channel muted), admin
let secret: number; // private: admin
let archived: number; // public, archived
let modern: Watcher; // member, every event type
let legacy: Watcher; // member, muted_topics but not user_topic
let both: Watcher; // member, asked for both
let capable: Watcher; // member, empty_topic_name capability
let admin: Watcher;

const setPolicy = (params: Record<string, unknown>, who: 'member' | 'admin' | 'guest' = 'member') =>
  t.as(who).post('/user_topics', params);

beforeAll(async () => {
  t = await startTestServer();
  const { member: m, admin: a } = t.accounts;
  open = createChannel(t, { name: 'open', subscribers: [m.id, a.id] });
  quiet = createChannel(t, { name: 'quiet', subscribers: [m.id, a.id] });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.id] });
  archived = createChannel(t, { name: 'archived', subscribers: [m.id] });
  const db = t.server.ctx.db;
  db.prepare('UPDATE subscriptions SET is_muted = 1 WHERE stream_id = ? AND user_id = ?').run(
    quiet,
    m.id,
  );
  db.prepare('UPDATE streams SET is_archived = 1 WHERE id = ?').run(archived);
  modern = await Watcher.register(t.as('member'));
  legacy = await Watcher.register(t.as('member'), { event_types: ['muted_topics', 'message'] });
  both = await Watcher.register(t.as('member'), { event_types: ['muted_topics', 'user_topic'] });
  capable = await Watcher.register(t.as('member'), {
    event_types: ['user_topic'],
    client_capabilities: { empty_topic_name: true },
  });
  admin = await Watcher.register(t.as('admin'));
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const w of [modern, legacy, both, capable, admin]) await w.take();
});

describe('POST /user_topics', () => {
  it('mutes a topic that has no messages, with events for new and old clients', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await setPolicy({ stream_id: open, topic: 'Future plans', visibility_policy: 1 });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const [event] = await modern.take('user_topic');
    expect(event).toEqual({
      type: 'user_topic',
      stream_id: open,
      topic_name: 'Future plans',
      last_updated: expect.any(Number),
      visibility_policy: 1,
      id: expect.any(Number),
    });
    expect(event.last_updated).toBeGreaterThanOrEqual(before);
    expect(await legacy.take()).toEqual([
      {
        type: 'muted_topics',
        muted_topics: [['open', 'Future plans', event.last_updated]],
        id: expect.any(Number),
      },
    ]);
    expect((await both.take()).map((e) => e.type)).toEqual(['user_topic']);
    expect(await admin.take()).toEqual([]);

    const state = await messageState(t.as('member'));
    expect(state.user_topics).toContainEqual({
      stream_id: open,
      topic_name: 'Future plans',
      last_updated: event.last_updated,
      visibility_policy: 1,
    });
    expect(state.muted_topics).toContainEqual(['open', 'Future plans', event.last_updated]);
  });

  it('sends the whole muted_topics list before user_topic to a queue of every type', async () => {
    await setPolicy({ stream_id: open, topic: 'order one', visibility_policy: 1 });
    await setPolicy({ stream_id: open, topic: 'order two', visibility_policy: 1 });
    const events = await modern.take();
    expect(events.map((e) => e.type)).toEqual([
      'muted_topics',
      'user_topic',
      'muted_topics',
      'user_topic',
    ]);
    const lists = events.filter((e) => e.type === 'muted_topics').map((e) => e.muted_topics);
    const names = (list: [string, string, number][]) => list.map(([, topic]) => topic);
    expect(names(lists[0])).toContain('order one');
    expect(names(lists[0])).not.toContain('order two');
    expect(names(lists[1])).toEqual(expect.arrayContaining(['order one', 'order two']));
    // Unmuting sends the list without the topic.
    await setPolicy({ stream_id: open, topic: 'order one', visibility_policy: 0 });
    const [unmuted] = await modern.take('muted_topics');
    expect(names(unmuted.muted_topics)).not.toContain('order one');
    expect(await capable.take('muted_topics')).toEqual([]);
  });

  it('changes nothing when the value is already set, and removes with 0', async () => {
    await setPolicy({ stream_id: open, topic: 'repeat', visibility_policy: 3 });
    await modern.take();
    await setPolicy({ stream_id: open, topic: 'REPEAT', visibility_policy: 3 });
    expect(await modern.take()).toEqual([]);
    await setPolicy({ stream_id: open, topic: 'repeat', visibility_policy: 0 });
    const [removed] = await modern.take('user_topic');
    expect(removed).toMatchObject({ stream_id: open, topic_name: 'repeat', visibility_policy: 0 });
    const state = await messageState(t.as('member'));
    expect(state.user_topics.some((u: { topic_name: string }) => u.topic_name === 'repeat')).toBe(
      false,
    );
    // Removing what is not there is fine too, silently.
    const again = await setPolicy({ stream_id: open, topic: 'repeat', visibility_policy: 0 });
    expect(again.body.result).toBe('success');
    expect(await modern.take()).toEqual([]);
  });

  it('stores the empty topic for "(no topic)" and names it per client', async () => {
    await setPolicy({ stream_id: open, topic: '(no topic)', visibility_policy: 1 });
    expect((await modern.take('user_topic'))[0].topic_name).toBe('general chat');
    expect((await capable.take('user_topic'))[0].topic_name).toBe('');
    const [legacyEvent] = await legacy.take('muted_topics');
    expect(legacyEvent.muted_topics).toContainEqual(['open', 'general chat', expect.any(Number)]);
    const mine = await messageState(t.as('member'), {
      client_capabilities: { empty_topic_name: true },
    });
    expect(mine.user_topics).toContainEqual(expect.objectContaining({ topic_name: '' }));
    await setPolicy({ stream_id: open, topic: 'general chat', visibility_policy: 0 });
    expect((await capable.take('user_topic'))[0]).toMatchObject({
      topic_name: '',
      visibility_policy: 0,
    });
  });

  it('checks the channel, the policy and the topic length', async () => {
    for (const stream_id of [secret, archived, 987654]) {
      expectError(
        await setPolicy({ stream_id, topic: 't', visibility_policy: 1 }),
        400,
        'BAD_REQUEST',
        'Invalid channel ID',
      );
    }
    // Removing a preference only needs the channel to exist.
    expect(
      (await setPolicy({ stream_id: secret, topic: 't', visibility_policy: 0 })).body.result,
    ).toBe('success');
    expectError(
      await setPolicy({ stream_id: 987654, topic: 't', visibility_policy: 0 }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    for (const visibility_policy of [4, -1]) {
      expectError(
        await setPolicy({ stream_id: open, topic: 't', visibility_policy }),
        400,
        'BAD_REQUEST',
        'Invalid visibility_policy',
      );
    }
    expectError(
      await setPolicy({ stream_id: open, topic: 'x'.repeat(61), visibility_policy: 1 }),
      400,
      'BAD_REQUEST',
      'topic is too long (limit: 60 characters)',
    );
    expect(
      (await setPolicy({ stream_id: open, topic: 'y'.repeat(60), visibility_policy: 1 })).body
        .result,
    ).toBe('success');
    expectError(
      await setPolicy({ stream_id: open, visibility_policy: 1 }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'topic' argument",
      { var_name: 'topic' },
    );
    // A guest cannot reach a public channel they are not in.
    expectError(
      await setPolicy({ stream_id: open, topic: 't', visibility_policy: 1 }, 'guest'),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });
});

describe('muting and unread counts', () => {
  it('counts unmuted in an unmuted channel like no preference, and honours muted channels', async () => {
    await t.as('member').post('/mark_all_as_read');
    const plain = await sendToChannel(t, 'admin', open, 'plain');
    const unmuted = await sendToChannel(t, 'admin', open, 'unmuted here');
    const muted = await sendToChannel(t, 'admin', open, 'muted', '@**all** and @**Mel Member**');
    const mutedWildcard = await sendToChannel(t, 'admin', open, 'muted', '@**all**');
    const inQuiet = await sendToChannel(t, 'admin', quiet, 'anything', '@**all**');
    const followedInQuiet = await sendToChannel(t, 'admin', quiet, 'followed');
    const unmutedInQuiet = await sendToChannel(t, 'admin', quiet, 'unmuted');
    await setPolicy({ stream_id: open, topic: 'unmuted here', visibility_policy: 2 });
    await setPolicy({ stream_id: open, topic: 'muted', visibility_policy: 1 });
    await setPolicy({ stream_id: quiet, topic: 'followed', visibility_policy: 3 });
    await setPolicy({ stream_id: quiet, topic: 'unmuted', visibility_policy: 2 });

    const { unread_msgs } = await messageState(t.as('member'));
    // Every unread channel message is listed; only unmuted ones are counted.
    const listed = unread_msgs.streams.flatMap(
      (s: { unread_message_ids: number[] }) => s.unread_message_ids,
    );
    expect(listed.sort((a: number, b: number) => a - b)).toEqual([
      plain,
      unmuted,
      muted,
      mutedWildcard,
      inQuiet,
      followedInQuiet,
      unmutedInQuiet,
    ]);
    expect(unread_msgs.count).toBe(4);
    // Direct mentions always count as mentions, wildcards only where not muted.
    expect(unread_msgs.mentions).toEqual([muted]);

    // is:muted agrees: the narrow endpoint touches exactly the muted messages.
    const res = await t.as('member').post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 100,
      narrow: [{ operator: 'is', operand: 'muted' }],
      op: 'add',
      flag: 'collapsed',
    });
    expect(res.body).toMatchObject({ processed_count: 3 });
    expect([res.body.first_processed_id, res.body.last_processed_id]).toEqual([muted, inQuiet]);
  });
});

describe('PATCH /users/me/subscriptions/muted_topics (deprecated)', () => {
  const patch = (params: Record<string, unknown>) =>
    t.as('member').patch('/users/me/subscriptions/muted_topics', params);

  it('mutes by channel name or id and unmutes, with the same events', async () => {
    expect((await patch({ stream: 'open', topic: 'legacy', op: 'add' })).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect((await modern.take('user_topic'))[0]).toMatchObject({
      stream_id: open,
      topic_name: 'legacy',
      visibility_policy: 1,
    });
    expect((await legacy.take('muted_topics'))[0].muted_topics).toContainEqual([
      'open',
      'legacy',
      expect.any(Number),
    ]);
    expectError(
      await patch({ stream_id: open, topic: 'legacy', op: 'add' }),
      400,
      'BAD_REQUEST',
      'Topic already muted',
    );
    expect((await patch({ stream_id: open, topic: 'legacy', op: 'remove' })).body.result).toBe(
      'success',
    );
    expect((await modern.take('user_topic'))[0]).toMatchObject({ visibility_policy: 0 });
    expectError(
      await patch({ stream_id: open, topic: 'legacy', op: 'remove' }),
      400,
      'BAD_REQUEST',
      'Topic is not muted',
    );
  });

  it('needs exactly one way of naming the channel', async () => {
    expectError(
      await patch({ topic: 'x', op: 'add' }),
      400,
      'BAD_REQUEST',
      "Please supply 'stream'.",
    );
    expectError(
      await patch({ stream: 'open', stream_id: open, topic: 'x', op: 'add' }),
      400,
      'BAD_REQUEST',
      "Please choose one: 'stream' or 'stream_id'.",
    );
    expectError(
      await patch({ stream: 'secret', topic: 'x', op: 'add' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'secret'",
    );
    expectError(
      await patch({ stream: 'open', topic: 'x', op: 'mute' }),
      400,
      'BAD_REQUEST',
      'Invalid op',
    );
  });
});

describe('POST /user_topics topic rules', () => {
  it('refuses control characters in the topic, as sending does', async () => {
    const channel = createChannel(t, { name: 'topic rules', subscribers: [t.accounts.member.id] });
    const res = await t.as('member').post('/user_topics', {
      stream_id: channel,
      topic: 'bad\u0000topic',
      visibility_policy: 1,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Invalid character in topic, at position 4!',
    });
  });
});
