import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUserTopicPolicy, userTopicPolicy } from '../../server/db/queries/user-topics.js';
import { userByEmailKey } from '../../server/db/queries/users.js';
import { only, receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk, streamMessage } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  editRows,
  FakeClock,
  flagsOf,
  message,
  searchIds,
  setRealm,
  topicRows,
} from './send-support.js';

const clock = new FakeClock();
let t: TestServer;
let general: number;
let secret: number;
let lounge: number;
let watchers: Watchers;
const now = () => Math.floor(clock.ms / 1000);

beforeAll(async () => {
  t = await startTestServer({ now: clock.now });
  watchers = new Watchers(t);
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.moderator.id, a.guest.id],
  });
  secret = createChannel(t, {
    name: 'secret',
    private: true,
    subscribers: [a.owner.id, a.member.id],
  });
  lounge = createChannel(t, { name: 'lounge', subscribers: [a.member.id, a.admin.id] });
  for (const who of ['owner', 'admin', 'member', 'moderator', 'guest'] as const) {
    await watchers.add(who, who, {
      client_capabilities: { bulk_message_deletion: true },
    });
  }
  // A client without bulk_message_deletion gets one event per message.
  await watchers.add('guest:legacy', 'guest');
});
afterAll(() => t.close());

beforeEach(async () => {
  setRealm(t, {
    move_messages_within_stream_limit_seconds: 604800,
    move_messages_between_streams_limit_seconds: 604800,
  });
  await watchers.clear();
});

type Who = 'owner' | 'admin' | 'member' | 'moderator' | 'guest';
const move = (who: Who, id: number, params: Record<string, unknown>) =>
  t.as(who).patch(`/messages/${id}`, params);

/** Sends `n` messages to a topic, a minute apart; returns their ids. */
async function fillTopic(stream: number, topic: string, n: number, who: Who = 'member') {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(await sendOk(t.as(who), streamMessage(stream, topic, `${topic} message ${i}`)));
    clock.advance(60);
  }
  return ids;
}

const contents = (stream: number, topic: string) =>
  topicRows(t, stream, topic).map((m) => m.content);
const bot = () => userByEmailKey(t.server.ctx.db, 'notification-bot@test.hearth');

describe('topic moves', () => {
  it('change_one moves only the message, with history, search and an event', async () => {
    const [first, second] = await fillTopic(general, 'apples', 2);
    const res = await move('member', second!, {
      topic: 'oranges',
      send_notification_to_new_thread: false,
    });
    expect(res.status).toBe(200);
    expect(message(t, second!)!.topic).toBe('oranges');
    expect(message(t, first!)!.topic).toBe('apples');
    expect(message(t, second!)!.last_moved_time).toBe(now());
    expect(message(t, second!)!.last_edit_time).toBeNull();
    expect(editRows(t, second!)).toMatchObject([
      { prev_topic: 'apples', topic: 'oranges', prev_content: null, user_id: t.accounts.member.id },
    ]);
    expect(searchIds(t, 'topic:oranges')).toEqual([second]);

    const events = await watchers.take('update_message');
    expect(receivers(events)).toEqual([
      'admin',
      'guest',
      'guest:legacy',
      'member',
      'moderator',
      'owner',
    ]);
    expect(events.owner![0]).toMatchObject({
      message_id: second,
      message_ids: [second],
      propagate_mode: 'change_one',
      orig_subject: 'apples',
      subject: 'oranges',
      topic_links: [],
      stream_id: general,
      stream_name: 'general',
      user_id: t.accounts.member.id,
      rendering_only: false,
    });
    expect(events.owner![0]).not.toHaveProperty('new_stream_id');
    expect(events.owner![0]).not.toHaveProperty('content');
  });

  it('change_later moves the message and everything after it', async () => {
    const ids = await fillTopic(general, 'pears', 4);
    await move('member', ids[1]!, {
      topic: 'quinces',
      propagate_mode: 'change_later',
      send_notification_to_new_thread: false,
    });
    expect(topicRows(t, general, 'pears').map((m) => m.id)).toEqual([ids[0]]);
    expect(topicRows(t, general, 'quinces').map((m) => m.id)).toEqual(ids.slice(1));
    const events = await watchers.take('update_message');
    expect(events.member![0].message_ids).toEqual(ids.slice(1));
  });

  it('change_all moves the whole topic and its followers', async () => {
    const ids = await fillTopic(general, 'plums', 3);
    // The member started the topic and follows it.
    expect(userTopicPolicy(t.server.ctx.db, t.accounts.member.id, general, 'plums')).toBe(3);
    await watchers.clear();
    await move('member', ids[2]!, {
      topic: 'prunes',
      propagate_mode: 'change_all',
      send_notification_to_new_thread: false,
    });
    expect(topicRows(t, general, 'plums')).toEqual([]);
    expect(topicRows(t, general, 'prunes').map((m) => m.id)).toEqual(ids);
    expect(userTopicPolicy(t.server.ctx.db, t.accounts.member.id, general, 'prunes')).toBe(3);
    expect(userTopicPolicy(t.server.ctx.db, t.accounts.member.id, general, 'plums')).toBe(0);
    const policyEvents = (await watchers.take('user_topic')).member!;
    expect(policyEvents.map((e) => [e.topic_name, e.visibility_policy])).toEqual([
      ['plums', 0],
      ['prunes', 3],
    ]);
  });

  it('follows the organization move policy', async () => {
    const [id] = await fillTopic(general, 'policy', 1);
    setRealm(t, { can_move_messages_between_topics_group: 'role:nobody' });
    try {
      const res = await move('member', id!, { topic: 'elsewhere' });
      expect(res.body.msg).toBe("You don't have permission to edit this message");
      // Administrators may always move.
      expect((await move('admin', id!, { topic: 'elsewhere' })).status).toBe(200);
    } finally {
      setRealm(t, { can_move_messages_between_topics_group: 'role:everyone' });
    }
  });

  it('ends for non-moderators after the topic time limit', async () => {
    const [id] = await fillTopic(general, 'aging', 1);
    setRealm(t, { move_messages_within_stream_limit_seconds: 3600 });
    clock.advance(3600 + 21);
    const res = await move('member', id!, { topic: 'too late' });
    expect(res.body.msg).toBe("The time limit for editing this message's topic has passed.");
    expect((await move('moderator', id!, { topic: 'moderated' })).status).toBe(200);
  });

  it('refuses change_all past the limit with MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', async () => {
    setRealm(t, { move_messages_within_stream_limit_seconds: 3600 });
    const old = await fillTopic(general, 'history', 2);
    clock.advance(3600);
    const recent = await fillTopic(general, 'history', 3);
    const res = await t.as('member').patch(
      `/messages/${recent[2]}`,
      { topic: 'rewritten', propagate_mode: 'change_all' },
      // The reference's 400 schema describes these fields only in prose.
      { skipSchema: true },
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      msg: 'You only have permission to move the 3/5 most recent messages in this topic.',
      first_message_id_allowed_to_move: recent[0],
      total_messages_in_topic: 5,
      total_messages_allowed_to_move: 3,
    });
    expect(topicRows(t, general, 'history')).toHaveLength(5);
    // Moderators are not limited.
    const ok = await move('moderator', recent[2]!, {
      topic: 'rewritten',
      propagate_mode: 'change_all',
      send_notification_to_new_thread: false,
    });
    expect(ok.status).toBe(200);
    expect(topicRows(t, general, 'rewritten').map((m) => m.id)).toEqual([...old, ...recent]);
  });

  it('truncates long topics and rejects control characters', async () => {
    const [id] = await fillTopic(general, 'short', 1);
    await move('member', id!, { topic: 'z'.repeat(70), send_notification_to_new_thread: false });
    expect(message(t, id!)!.topic).toBe(`${'z'.repeat(57)}...`);
    const res = await move('member', id!, { topic: 'bad\u0007topic' });
    expect(res.body.msg).toBe('Invalid character in topic, at position 4!');
  });
});

describe('move notifications', () => {
  it('announce a whole-topic move in both threads', async () => {
    await fillTopic(general, 'kiwis', 2);
    const [last] = topicRows(t, general, 'kiwis').slice(-1);
    await move('member', last!.id, {
      topic: 'limes',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
    });
    const mention = `@_**Mel Member|${t.accounts.member.id}**`;
    expect(contents(general, 'limes').slice(-1)).toEqual([
      `This topic was moved here from #**general>kiwis** by ${mention}.`,
    ]);
    expect(contents(general, 'kiwis')).toEqual([
      `This topic was moved to #**general>limes** by ${mention}.`,
    ]);
    const notification = bot()!;
    expect(notification.full_name).toBe('Notification Bot');
    expect(notification.is_bot).toBe(1);
    // Read by the one who moved, unread for the others.
    const notice = topicRows(t, general, 'limes').slice(-1)[0]!.id;
    expect(flagsOf(t, t.accounts.member.id, notice)).toContain('read');
    expect(flagsOf(t, t.accounts.owner.id, notice)).not.toContain('read');
  });

  it('count partial moves', async () => {
    const ids = await fillTopic(general, 'figs', 3);
    const mention = `@_**Mel Member|${t.accounts.member.id}**`;
    await move('member', ids[2]!, { topic: 'dates', send_notification_to_old_thread: true });
    const newNotice = contents(general, 'dates').slice(-1)[0]!;
    expect(newNotice).toMatch(
      new RegExp(
        `^\\[A message\\]\\(http://[^)]+/#narrow/channel/${general}-general/topic/dates/near/${ids[2]}\\) was moved here from #\\*\\*general>figs\\*\\* by `,
      ),
    );
    expect(contents(general, 'figs').slice(-1)).toEqual([
      `A message was moved from this topic to #**general>dates** by ${mention}.`,
    ]);
    await move('member', ids[0]!, {
      topic: 'dates',
      propagate_mode: 'change_later',
      send_notification_to_old_thread: true,
    });
    // ids[0], ids[1] and the earlier notice in figs: three messages.
    expect(contents(general, 'dates').slice(-1)).toEqual([
      `3 messages were moved here from #**general>figs** by ${mention}.`,
    ]);
  });

  it('are not sent to the old thread by default', async () => {
    const [id] = await fillTopic(general, 'quiet move', 1);
    await move('member', id!, { topic: 'quiet target' });
    expect(contents(general, 'quiet move')).toEqual([]);
    expect(contents(general, 'quiet target')).toHaveLength(2);
  });
});

describe('resolving topics', () => {
  it('adds the prefix and posts a notice, which a quick undo deletes', async () => {
    const [id] = await fillTopic(general, 'bug 7', 1);
    setUserTopicPolicy(t.server.ctx.db, {
      userId: t.accounts.owner.id,
      streamId: general,
      topic: 'bug 7',
      policy: 3,
      now: now(),
    });
    const res = await move('member', id!, { topic: '✔ bug 7', propagate_mode: 'change_all' });
    expect(res.status).toBe(200);
    const mention = `@_**Mel Member|${t.accounts.member.id}**`;
    expect(contents(general, '✔ bug 7')).toEqual([
      'bug 7 message 0',
      `${mention} has marked this topic as resolved.`,
    ]);
    // Resolving is not a move.
    expect(message(t, id!)!.last_moved_time).toBeNull();
    expect(editRows(t, id!)).toMatchObject([{ prev_topic: 'bug 7', topic: '✔ bug 7' }]);
    // Unread only for followers (the default "except_followed" policy), never for the resolver.
    const notice = topicRows(t, general, '✔ bug 7')[1]!.id;
    expect(flagsOf(t, t.accounts.owner.id, notice)).not.toContain('read');
    expect(flagsOf(t, t.accounts.admin.id, notice)).toContain('read');
    expect(flagsOf(t, t.accounts.member.id, notice)).toContain('read');
    // The followers' policy moved with the topic.
    expect(userTopicPolicy(t.server.ctx.db, t.accounts.owner.id, general, '✔ bug 7')).toBe(3);

    clock.advance(30);
    await watchers.clear();
    await move('member', id!, { topic: 'bug 7', propagate_mode: 'change_all' });
    expect(contents(general, 'bug 7')).toEqual(['bug 7 message 0']);
    const deletions = await watchers.take('delete_message');
    expect(deletions.owner).toEqual([
      expect.objectContaining({ message_ids: [notice], message_type: 'stream', topic: 'bug 7' }),
    ]);
  });

  it('posts an unresolve notice after the grace period', async () => {
    const [id] = await fillTopic(general, 'bug 8', 1);
    await move('member', id!, { topic: '✔ bug 8', propagate_mode: 'change_all' });
    clock.advance(61);
    await move('member', id!, { topic: 'bug 8', propagate_mode: 'change_all' });
    expect(contents(general, 'bug 8').slice(-1)).toEqual([
      `@_**Mel Member|${t.accounts.member.id}** has marked this topic as unresolved.`,
    ]);
  });

  it('is a resolve when the prefix pushes a topic past the length limit (the name is cut)', async () => {
    const long = `${'x'.repeat(59)}y`;
    const [id] = await fillTopic(general, long, 1);
    await move('member', id!, { topic: `✔ ${long}`, propagate_mode: 'change_all' });
    const stored = `✔ ${'x'.repeat(55)}...`;
    expect(contents(general, stored).slice(-1)).toEqual([
      `@_**Mel Member|${t.accounts.member.id}** has marked this topic as resolved.`,
    ]);
    expect(message(t, id!)!.last_moved_time).toBeNull();
  });

  it('unresolving strips every check mark and space the prefix starts', async () => {
    const [id] = await fillTopic(general, '✔ ✔  bug 10', 1);
    clock.advance(61);
    await move('member', id!, { topic: 'bug 10', propagate_mode: 'change_all' });
    expect(contents(general, 'bug 10').slice(-1)).toEqual([
      `@_**Mel Member|${t.accounts.member.id}** has marked this topic as unresolved.`,
    ]);
    expect(message(t, id!)!.last_moved_time).toBeNull();
  });

  it('is refused for the empty topic and without permission', async () => {
    const [id] = await fillTopic(general, '', 1);
    for (const topic of ['✔', '✔ general chat']) {
      expect((await move('member', id!, { topic })).body.msg).toBe(
        'General chat cannot be marked as resolved',
      );
    }
    const [other] = await fillTopic(general, 'bug 9', 1);
    setRealm(t, { can_resolve_topics_group: 'role:nobody' });
    try {
      expect((await move('member', other!, { topic: '✔ bug 9' })).body.msg).toBe(
        "You don't have permission to resolve topics in this channel.",
      );
    } finally {
      setRealm(t, { can_resolve_topics_group: 'role:everyone' });
    }
  });

  it('uses one Notification Bot for the organization', async () => {
    const count = t.server.ctx.db
      .prepare("SELECT count(*) AS n FROM users WHERE full_name = 'Notification Bot'")
      .get() as { n: number };
    expect(count.n).toBe(1);
  });
});

describe('channel moves', () => {
  it('move messages to another channel; those who lose access get delete_message', async () => {
    const ids = await fillTopic(general, 'plans', 2);
    const res = await move('member', ids[0]!, {
      stream_id: secret,
      propagate_mode: 'change_all',
      send_notification_to_new_thread: false,
    });
    expect(res.status).toBe(200);
    for (const id of ids) expect(message(t, id)!.stream_id).toBe(secret);
    expect(editRows(t, ids[1]!)).toMatchObject([
      { prev_stream_id: general, stream_id: secret, prev_topic: null },
    ]);
    expect(message(t, ids[0]!)!.last_moved_time).toBe(now());

    const all = await watchers.take();
    const updates = only(all, 'update_message');
    expect(receivers(updates)).toEqual(['member', 'owner']);
    expect(updates.owner![0]).toMatchObject({
      stream_id: general,
      new_stream_id: secret,
      orig_subject: 'plans',
      propagate_mode: 'change_all',
      message_ids: ids,
    });
    expect(updates.owner![0]).not.toHaveProperty('subject');

    const deletions = only(all, 'delete_message');
    expect(receivers(deletions)).toEqual(['admin', 'guest', 'guest:legacy', 'moderator']);
    expect(deletions.admin).toEqual([
      expect.objectContaining({
        type: 'delete_message',
        message_ids: ids,
        message_type: 'stream',
        stream_id: general,
        topic: 'plans',
      }),
    ]);
    expect(deletions['guest:legacy']!.map((e) => e.message_id)).toEqual(ids);
    // The moved messages are gone for an unsubscribed admin.
    expect((await t.as('admin').get(`/messages/${ids[0]}/history`)).body.msg).toBe(
      'Invalid message(s)',
    );
  });

  it('keep the flags of those who keep access', async () => {
    const [id] = await fillTopic(general, 'starred', 1, 'owner');
    t.server.ctx.db
      .prepare('INSERT INTO user_message_flags (user_id, message_id, flags) VALUES (?, ?, ?)')
      .run(t.accounts.member.id, id, 1 | 2);
    await move('owner', id!, { stream_id: secret, send_notification_to_new_thread: false });
    expect(flagsOf(t, t.accounts.member.id, id!)).toEqual(['read', 'starred']);
  });

  it('to a public channel only take messages from guests', async () => {
    const [id] = await fillTopic(general, 'relocate', 1);
    await move('member', id!, { stream_id: lounge, send_notification_to_new_thread: false });
    const all = await watchers.take();
    const deletions = only(all, 'delete_message');
    expect(receivers(deletions)).toEqual(['guest', 'guest:legacy']);
    const updates = only(all, 'update_message');
    // Old subscribers still see the public channel's messages and hear of the move.
    expect(receivers(updates)).toEqual(['admin', 'member', 'moderator', 'owner']);
  });

  it('announce the move in the new channel', async () => {
    const ids = await fillTopic(general, 'travel', 2);
    await move('member', ids[0]!, {
      stream_id: lounge,
      topic: 'arrived',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
    });
    const mention = `@_**Mel Member|${t.accounts.member.id}**`;
    expect(contents(lounge, 'arrived').slice(-1)).toEqual([
      `This topic was moved here from #**general>travel** by ${mention}.`,
    ]);
    expect(contents(general, 'travel')).toEqual([
      `This topic was moved to #**lounge>arrived** by ${mention}.`,
    ]);
  });

  it('need the move permission, the target post permission and time', async () => {
    const [id] = await fillTopic(general, 'guarded', 1);
    setRealm(t, { can_move_messages_between_channels_group: 'role:nobody' });
    try {
      expect((await move('member', id!, { stream_id: lounge })).body.msg).toBe(
        "You don't have permission to move this message",
      );
    } finally {
      setRealm(t, { can_move_messages_between_channels_group: 'role:members' });
    }
    // A private channel the mover cannot see is no target.
    expect((await move('admin', id!, { stream_id: secret })).body.msg).toBe('Invalid channel ID');
    const locked = createChannel(t, { name: 'locked', subscribers: [t.accounts.member.id] });
    t.server.ctx.db
      .prepare('UPDATE streams SET permissions = ? WHERE id = ?')
      .run(JSON.stringify({ can_send_message_group: 'role:administrators' }), locked);
    expect((await move('member', id!, { stream_id: locked })).body.msg).toBe(
      'You do not have permission to post in this channel.',
    );
    setRealm(t, { move_messages_between_streams_limit_seconds: 60 });
    clock.advance(100);
    expect((await move('member', id!, { stream_id: lounge })).body.msg).toBe(
      "The time limit for editing this message's channel has passed",
    );
  });
});
