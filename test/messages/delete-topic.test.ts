/**
 * POST /streams/{stream_id}/delete_topic: administrators delete a topic's
 * messages newest first in batches (two per batch here), with a time budget
 * after which the answer is `complete: false`; preferences for the topic
 * are reset and the channel's first_message_id follows.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertSubscription } from '../../server/db/queries/streams.js';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { type FixtureName, startTestServer, type TestServer } from '../helpers/server.js';
import { flagRow, message } from './send-support.js';

let t: TestServer;
let general: number; // public: owner, admin, member, bot
let watchers: Watchers;
let channelCounter = 0;

beforeAll(async () => {
  t = await startTestServer({ topicDeletion: { batchSize: 2 } });
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.bot.id],
  });
  watchers = new Watchers(t);
  const bulk = { client_capabilities: { bulk_message_deletion: true } };
  for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
    await watchers.add(who, who, bulk);
  }
  await watchers.add('member:legacy', 'member');
});
afterAll(() => t.close());
beforeEach(async () => {
  t.server.ctx.config.topicDeletion.timeBudgetMs = 50_000;
  await watchers.clear();
});

const deleteTopic = (who: FixtureName, streamId: number, topic: string) =>
  t.as(who).post(`/streams/${streamId}/delete_topic`, { topic_name: topic });

/** A public channel of its own (so first_message_id cases do not interfere). */
function freshChannel(extra: { private?: boolean; historyPublic?: boolean } = {}): number {
  channelCounter++;
  const a = t.accounts;
  return createChannel(t, {
    name: `room ${channelCounter}`,
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.bot.id],
    ...extra,
  });
}

async function sendMany(streamId: number, topic: string, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await sendToChannel(t, 'member', streamId, topic, `m${i}`));
  return ids;
}

/** The user's registered preferences in a channel for the given topics (lower-cased), as [topic, policy]. */
async function preferences(who: FixtureName, streamId: number, topics: string[]) {
  const res = await t.as(who).post('/register', { fetch_event_types: ['user_topic'] });
  return (
    res.body.user_topics as Array<{
      stream_id: number;
      topic_name: string;
      visibility_policy: number;
    }>
  )
    .filter((r) => r.stream_id === streamId && topics.includes(r.topic_name.toLowerCase()))
    .map((r) => [r.topic_name, r.visibility_policy]);
}

const gone = (ids: number[]) => ids.every((id) => message(t, id) === undefined);
const kept = (ids: number[]) => ids.every((id) => message(t, id) !== undefined);

describe('POST /streams/{stream_id}/delete_topic', () => {
  it('uses the configured batch size and Zulip’s time budget', () => {
    expect(t.server.ctx.config.topicDeletion).toEqual({ batchSize: 2, timeBudgetMs: 50_000 });
  });

  it('deletes every message of the topic in batches, newest first, and nothing else', async () => {
    const ids = await sendMany(general, 'lunch', 5);
    const other = await sendToChannel(t, 'member', general, 'dinner');
    await watchers.clear();

    const res = await deleteTopic('admin', general, 'lunch');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', complete: true });
    expect(gone(ids)).toBe(true);
    expect(kept([other])).toBe(true);

    const events = await watchers.take('delete_message');
    expect(receivers(events)).toEqual(['admin', 'bot', 'member', 'member:legacy', 'owner']);
    // One bulk event per batch: the two newest first.
    expect(events.owner!.map((e: { message_ids: number[] }) => e.message_ids)).toEqual([
      [ids[3], ids[4]],
      [ids[1], ids[2]],
      [ids[0]],
    ]);
    expect(events.owner![0]).toEqual({
      id: expect.any(Number),
      type: 'delete_message',
      message_ids: [ids[3], ids[4]],
      message_type: 'stream',
      stream_id: general,
      topic: 'lunch',
    });
    // Clients without bulk_message_deletion get one event per message, batch by batch.
    expect(events['member:legacy']!.map((e: { message_id: number }) => e.message_id)).toEqual([
      ids[3],
      ids[4],
      ids[1],
      ids[2],
      ids[0],
    ]);
    expect(events['member:legacy']![0]).toEqual({
      id: expect.any(Number),
      type: 'delete_message',
      message_id: ids[3],
      message_type: 'stream',
      stream_id: general,
      topic: 'lunch',
    });
  });

  it('stops when the time budget is spent and answers complete: false until done', async () => {
    const ids = await sendMany(general, 'long story', 5);
    await watchers.clear();
    t.server.ctx.config.topicDeletion.timeBudgetMs = 0;

    const first = await deleteTopic('admin', general, 'long story');
    expect(first.body).toEqual({ result: 'success', msg: '', complete: false });
    expect(gone([ids[3]!, ids[4]!])).toBe(true);
    expect(kept([ids[0]!, ids[1]!, ids[2]!])).toBe(true);
    expect((await watchers.get('owner').take('delete_message')).map((e) => e.message_ids)).toEqual([
      [ids[3], ids[4]],
    ]);

    const second = await deleteTopic('admin', general, 'long story');
    expect(second.body.complete).toBe(false);
    expect(gone([ids[1]!, ids[2]!])).toBe(true);
    expect(kept([ids[0]!])).toBe(true);

    // The last batch is short, so the topic is known to be empty.
    const third = await deleteTopic('admin', general, 'long story');
    expect(third.body.complete).toBe(true);
    expect(gone(ids)).toBe(true);
  });

  it('matches the topic case-insensitively, and an empty topic by its display names', async () => {
    const ids = await sendMany(general, 'Lunch Plans', 2);
    expect((await deleteTopic('admin', general, 'lunch plans')).body.complete).toBe(true);
    expect(gone(ids)).toBe(true);

    const empty = await sendMany(general, '', 1);
    const named = await sendToChannel(t, 'member', general, 'general chat!');
    expect((await deleteTopic('admin', general, 'general chat')).body.complete).toBe(true);
    expect(gone(empty)).toBe(true);
    expect(kept([named])).toBe(true);
    const again = await sendMany(general, '', 1);
    expect((await deleteTopic('admin', general, '(no topic)')).body.complete).toBe(true);
    expect(gone(again)).toBe(true);
  });

  it('answers complete: true for a topic without messages, with no events', async () => {
    const res = await deleteTopic('admin', general, 'nothing here');
    expect(res.body).toEqual({ result: 'success', msg: '', complete: true });
    const events = await watchers.take();
    expect(receivers(events)).toEqual([]);
  });

  it('removes the flag rows of the deleted messages', async () => {
    const [id] = await sendMany(general, 'starred', 1);
    await t.as('admin').post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    expect(flagRow(t, t.accounts.admin.id, id!)).toBeDefined();
    await deleteTopic('admin', general, 'starred');
    expect(flagRow(t, t.accounts.admin.id, id!)).toBeUndefined();
  });

  it('resets everyone’s preference for the topic, and only for it', async () => {
    await sendMany(general, 'noisy', 1);
    const policy = (who: FixtureName, topic: string, visibility_policy: number) =>
      t.as(who).post('/user_topics', { stream_id: general, topic, visibility_policy });
    await policy('member', 'noisy', 1);
    await policy('owner', 'NOISY', 3);
    await policy('member', 'other', 1);
    await watchers.clear();

    await deleteTopic('admin', general, 'Noisy');
    const events = await watchers.take('user_topic');
    expect(receivers(events)).toEqual(['member', 'member:legacy', 'owner']);
    expect(events.member).toEqual([
      {
        id: expect.any(Number),
        type: 'user_topic',
        stream_id: general,
        topic_name: 'noisy',
        last_updated: expect.any(Number),
        visibility_policy: 0,
      },
    ]);
    expect(events.owner).toMatchObject([{ topic_name: 'NOISY', visibility_policy: 0 }]);

    expect(await preferences('member', general, ['noisy', 'other'])).toEqual([['other', 1]]);
    expect(await preferences('owner', general, ['noisy'])).toEqual([]);
    await policy('member', 'other', 0);
  });

  it('resets preferences even when the topic has no messages left', async () => {
    await t
      .as('member')
      .post('/user_topics', { stream_id: general, topic: 'ghost', visibility_policy: 1 });
    await watchers.clear();
    expect((await deleteTopic('admin', general, 'ghost')).body.complete).toBe(true);
    const events = await watchers.take('user_topic');
    expect(receivers(events)).toEqual(['member', 'member:legacy']);
  });

  it('sends first_message_id when the channel’s oldest message goes', async () => {
    const room = freshChannel();
    const [oldest] = await sendMany(room, 'first', 1);
    const [middle] = await sendMany(room, 'second', 1);
    await sendMany(room, 'first', 1);
    await watchers.clear();

    // The oldest message stays: no channel event.
    await deleteTopic('admin', room, 'second');
    expect(receivers(await watchers.take('stream'))).toEqual([]);
    expect(kept([oldest!])).toBe(true);
    expect(gone([middle!])).toBe(true);

    const [newer] = await sendMany(room, 'third', 1);
    await watchers.clear();
    await deleteTopic('admin', room, 'first');
    const events = await watchers.take('stream');
    // Everyone who may know the channel exists (guests do not see public channels they are not in).
    expect(receivers(events)).toEqual([
      'admin',
      'bot',
      'member',
      'member:legacy',
      'moderator',
      'owner',
    ]);
    expect(events.owner).toEqual([
      {
        id: expect.any(Number),
        type: 'stream',
        op: 'update',
        property: 'first_message_id',
        value: newer,
        stream_id: room,
        name: expect.any(String),
      },
    ]);

    await watchers.clear();
    await deleteTopic('admin', room, 'third');
    const emptied = await watchers.take('stream');
    expect(emptied.owner).toMatchObject([{ property: 'first_message_id', value: null }]);
    const channel = await t.as('owner').get(`/streams/${room}`);
    expect(channel.body.stream.first_message_id).toBeNull();
  });

  it('leaves what the caller cannot see in a channel with protected history', async () => {
    const { owner, admin, member } = t.accounts;
    const vault = createChannel(t, {
      name: 'vault',
      private: true,
      historyPublic: false,
      subscribers: [owner.id, member.id],
    });
    const before = await sendMany(vault, 'plans', 2);
    t.server.ctx.transaction(() => insertSubscription(t.server.ctx.db, vault, admin.id, '#c2c2c2'));
    const after = await sendMany(vault, 'plans', 3);
    // Member received everything; admin only what came after joining.
    await t
      .as('member')
      .post('/user_topics', { stream_id: vault, topic: 'plans', visibility_policy: 1 });
    await t
      .as('admin')
      .post('/user_topics', { stream_id: vault, topic: 'plans', visibility_policy: 3 });
    await watchers.clear();

    const res = await deleteTopic('admin', vault, 'plans');
    expect(res.body.complete).toBe(true);
    expect(gone(after)).toBe(true);
    expect(kept(before)).toBe(true);

    const events = await watchers.take();
    const deleted = (list: Array<{ type: string; message_ids?: number[] }>) =>
      list.filter((e) => e.type === 'delete_message').flatMap((e) => e.message_ids ?? []);
    expect(deleted(events.member!).sort()).toEqual([...after].sort());
    expect(deleted(events.owner!).sort()).toEqual([...after].sort());
    // The member still has messages of the topic and keeps the preference.
    expect(receivers(events, (e) => e.type === 'user_topic')).toEqual(['admin']);
    expect(await preferences('member', vault, ['plans'])).toEqual([['plans', 1]]);
    expect(await preferences('admin', vault, ['plans'])).toEqual([]);
  });

  it('refuses channels the caller cannot access, and missing ones', async () => {
    const hidden = createChannel(t, {
      name: 'hidden',
      private: true,
      subscribers: [t.accounts.member.id],
    });
    const ids = await sendMany(hidden, 'secret', 1);
    expectError(
      await deleteTopic('admin', hidden, 'secret'),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expect(kept(ids)).toBe(true);
    expectError(await deleteTopic('admin', 99999, 'x'), 400, 'BAD_REQUEST', 'Invalid channel ID');
  });

  it('requires topic_name', async () => {
    // The reference's error schema for this endpoint lacks var_name, which Zulip sends.
    const res = await t
      .as('admin')
      .post(`/streams/${general}/delete_topic`, {}, { skipSchema: true });
    expectError(res, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument", {
      var_name: 'topic_name',
    });
  });

  it.each(['moderator', 'member', 'guest', 'bot'] as const)(
    'is refused to %s, deleting nothing',
    async (who) => {
      const ids = await sendMany(general, `kept by ${who}`, 1);
      const res = await deleteTopic(who, general, `kept by ${who}`);
      expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      expect(kept(ids)).toBe(true);
    },
  );

  it.each(['owner', 'admin'] as const)('is allowed to %s', async (who) => {
    const ids = await sendMany(general, `gone for ${who}`, 1);
    expect((await deleteTopic(who, general, `gone for ${who}`)).body.complete).toBe(true);
    expect(gone(ids)).toBe(true);
  });

  it('is refused to a deactivated administrator', async () => {
    const former = await quickMember(t, 'Former Admin', 200);
    await t.as('owner').delete(`/users/${former.id}`);
    const ids = await sendMany(general, 'after hours', 1);
    const res = await t
      .as(former)
      .post(`/streams/${general}/delete_topic`, { topic_name: 'after hours' });
    expectError(res, 401, 'USER_DEACTIVATED', 'Account is deactivated');
    expect(kept(ids)).toBe(true);
  });
});
