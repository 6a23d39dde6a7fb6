import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addGroupMember, insertGroup } from '../../server/db/queries/user-groups.js';
import { userTopicPolicy } from '../../server/db/queries/user-topics.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk, streamMessage } from '../helpers/messages.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';
import { flagRow, flagsOf, setRealm, setUser } from './send-support.js';

let t: TestServer;
const extras: Account[] = [];
let small: number;
let muted: number;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  const a = t.accounts;
  for (let i = 0; i < 10; i++) extras.push(await t.createMember(`Extra Person ${i}`));
  // small: 4 subscribers; big: 16 (above Zulip's wildcard threshold of 15).
  small = createChannel(t, {
    name: 'small',
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.guest.id],
  });
  createChannel(t, {
    name: 'big',
    subscribers: [
      a.owner.id,
      a.admin.id,
      a.moderator.id,
      a.member.id,
      a.guest.id,
      a.bot.id,
      ...extras.map((e) => e.id),
    ],
  });
  muted = createChannel(t, { name: 'muted', subscribers: [a.member.id] });
  t.server.ctx.db
    .prepare('UPDATE subscriptions SET is_muted = 1 WHERE stream_id = ? AND user_id = ?')
    .run(muted, a.member.id);
  for (const who of ['owner', 'admin', 'moderator', 'member', 'guest'] as const) {
    await watchers.add(who);
  }
  await watchers.add('member:2', 'member');
});
afterAll(() => t.close());

beforeEach(async () => {
  await watchers.clear();
});

describe('the message event', () => {
  it('reaches exactly the subscribers, each with their own flags', async () => {
    const id = await sendOk(t.as('member'), streamMessage('small', 'ev', 'hi @**Ada Admin**'));
    const events = await watchers.take('message');
    // Not the moderator (not subscribed); the guest is subscribed here.
    expect(receivers(events)).toEqual(['admin', 'guest', 'member', 'member:2', 'owner']);
    const byName = (name: string) => events[name]![0];
    expect(byName('owner').message.id).toBe(id);
    expect(byName('owner').message).toMatchObject({
      type: 'stream',
      display_recipient: 'small',
      subject: 'ev',
      stream_id: small,
      sender_id: t.accounts.member.id,
    });
    expect(byName('admin').flags).toEqual(['mentioned']);
    expect(byName('owner').flags).toEqual([]);
    expect(byName('guest').flags).toEqual([]);
    // The test client is not a self-rendering one: the sender has it unread.
    expect(byName('member').flags).toEqual([]);
  });

  it('does not reach guests or members outside the channel', async () => {
    await sendOk(t.as('owner'), streamMessage('muted', 'x', 'not for the others'));
    const events = await watchers.take('message');
    expect(receivers(events)).toEqual(['member', 'member:2']);
  });

  it('goes to both sides of a direct message only', async () => {
    await sendOk(t.as('member'), { type: 'direct', to: [t.accounts.guest.id], content: 'psst' });
    const events = await watchers.take('message');
    expect(receivers(events)).toEqual(['guest', 'member', 'member:2']);
    expect(events.guest![0].message.type).toBe('private');
    expect(events.guest![0].flags).toEqual([]);
  });

  it('carries local_message_id only to the queue that sent it', async () => {
    const res = await t.as('member').post('/messages', {
      ...streamMessage('small', 'echo', 'local echo'),
      queue_id: watchers.get('member').queueId,
      local_id: '123.01',
    });
    expect(res.status).toBe(200);
    const events = await watchers.take('message');
    expect(events.member![0].local_message_id).toBe('123.01');
    expect(events['member:2']![0]).not.toHaveProperty('local_message_id');
    expect(events.owner![0]).not.toHaveProperty('local_message_id');
  });

  it("ignores another user's queue id for local echo", async () => {
    await t.as('member').post('/messages', {
      ...streamMessage('small', 'echo', 'not yours'),
      queue_id: watchers.get('owner').queueId,
      local_id: '9',
    });
    const events = await watchers.take('message');
    expect(events.owner![0]).not.toHaveProperty('local_message_id');
  });
});

describe('mention flags', () => {
  it('mark only the mentioned users', async () => {
    const id = await sendOk(t.as('member'), {
      ...streamMessage('small', 'mentions', 'cc @**Ada Admin** and @**Mo Moderator**'),
      read_by_sender: true,
    });
    expect(flagRow(t, t.accounts.admin.id, id)).toBe(8);
    expect(flagsOf(t, t.accounts.admin.id, id)).toEqual(['mentioned']);
    // Not subscribed: the mention does not take effect.
    expect(flagRow(t, t.accounts.moderator.id, id)).toBeUndefined();
    expect(flagRow(t, t.accounts.owner.id, id)).toBeUndefined();
    expect(flagsOf(t, t.accounts.owner.id, id)).toEqual([]);
    expect(flagRow(t, t.accounts.member.id, id)).toBeUndefined();
  });

  it('ignore silent mentions', async () => {
    const id = await sendOk(t.as('member'), streamMessage('small', 'mentions', '@_**Ada Admin**'));
    expect(flagsOf(t, t.accounts.admin.id, id)).toEqual([]);
  });

  it('reach the members of a mentioned group', async () => {
    const db = t.server.ctx.db;
    const group = insertGroup(db, {
      name: 'helpers',
      description: '',
      is_system_group: false,
      date_created: 0,
      creator_id: null,
    });
    addGroupMember(db, group, t.accounts.owner.id);
    const id = await sendOk(t.as('member'), streamMessage('small', 'mentions', 'ping @*helpers*'));
    expect(flagsOf(t, t.accounts.owner.id, id)).toEqual(['mentioned']);
    expect(flagsOf(t, t.accounts.admin.id, id)).toEqual([]);
  });

  it('set stream_wildcard_mentioned for every recipient of a channel wildcard', async () => {
    const id = await sendOk(t.as('member'), streamMessage('small', 'wild', '@**all** hello'));
    for (const who of ['owner', 'admin', 'guest'] as const) {
      expect(flagsOf(t, t.accounts[who].id, id)).toEqual([
        'stream_wildcard_mentioned',
        'wildcard_mentioned',
      ]);
    }
  });

  it('set topic_wildcard_mentioned only for the topic participants', async () => {
    await sendOk(t.as('admin'), streamMessage('small', 'participants', 'I was here'));
    const id = await sendOk(t.as('member'), streamMessage('small', 'participants', '@**topic**'));
    expect(flagsOf(t, t.accounts.admin.id, id)).toEqual([
      'topic_wildcard_mentioned',
      'wildcard_mentioned',
    ]);
    expect(flagsOf(t, t.accounts.owner.id, id)).toEqual([]);
  });
});

describe('wildcard mention permissions', () => {
  it('refuse a channel wildcard above 15 subscribers to those outside can_mention_many_users_group', async () => {
    const res = await t.as('member').post('/messages', streamMessage('big', 'w', '@**everyone**'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      msg: 'You do not have permission to use channel wildcard mentions in this channel.',
    });
    // Administrators are in the group by default; small channels need no permission.
    await sendOk(t.as('admin'), streamMessage('big', 'w', '@**all** from an admin'));
    await sendOk(t.as('member'), streamMessage('small', 'w', '@**channel** is fine here'));
    setRealm(t, { can_mention_many_users_group: 'role:members' });
    try {
      await sendOk(t.as('member'), streamMessage('big', 'w', '@**stream** allowed now'));
    } finally {
      setRealm(t, { can_mention_many_users_group: 'role:administrators' });
    }
  });

  it('refuse a topic wildcard once the topic has more than 15 participants', async () => {
    const others = [
      t.as('owner'),
      t.as('admin'),
      t.as('moderator'),
      t.as('guest'),
      t.as('bot'),
      ...extras.map((e) => t.as(e)),
    ];
    // 15 participants with the member: still allowed.
    for (const client of others.slice(0, 14)) {
      await sendOk(client, streamMessage('big', 'crowd', 'present'));
    }
    await sendOk(t.as('member'), streamMessage('big', 'crowd', '@**topic** ok'));
    await sendOk(others[14]!, streamMessage('big', 'crowd', 'one more'));
    const res = await t.as('member').post('/messages', streamMessage('big', 'crowd', '@**topic**'));
    expect(res.body).toEqual({
      result: 'error',
      code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      msg: 'You do not have permission to use topic wildcard mentions in this topic.',
    });
  });
});

describe('automatic topic visibility', () => {
  it('follows on initiation with a user_topic event to the sender only', async () => {
    const res = await t.as('member').post('/messages', streamMessage('small', 'brand new', 'x'));
    expect(res.body.automatic_new_visibility_policy).toBe(3);
    const events = await watchers.take('user_topic');
    expect(receivers(events)).toEqual(['member', 'member:2']);
    expect(events.member![0]).toMatchObject({
      type: 'user_topic',
      stream_id: small,
      topic_name: 'brand new',
      visibility_policy: 3,
    });
  });

  it('unmutes a topic in a muted channel on send when the user asks for that', async () => {
    setUser(t, t.accounts.member.id, { automatically_follow_topics_policy: 4 });
    try {
      const res = await t.as('member').post('/messages', streamMessage('muted', 'loud', 'x'));
      expect(res.body.automatic_new_visibility_policy).toBe(2);
      expect(userTopicPolicy(t.server.ctx.db, t.accounts.member.id, muted, 'loud')).toBe(2);
      const again = await t.as('member').post('/messages', streamMessage('muted', 'loud', 'y'));
      expect(again.body).not.toHaveProperty('automatic_new_visibility_policy');
    } finally {
      setUser(t, t.accounts.member.id, { automatically_follow_topics_policy: 3 });
    }
  });

  it('makes mentioned people follow the topic', async () => {
    await sendOk(t.as('member'), streamMessage('small', 'follow me', '@**Olivia Owner** look'));
    expect(userTopicPolicy(t.server.ctx.db, t.accounts.owner.id, small, 'follow me')).toBe(3);
    const events = await watchers.take('user_topic');
    expect(events.owner![0]).toMatchObject({ topic_name: 'follow me', visibility_policy: 3 });
  });

  it('changes nothing for bots', async () => {
    const res = await t.as('bot').post('/messages', streamMessage('big', 'bot topic', 'beep'));
    expect(res.body).not.toHaveProperty('automatic_new_visibility_policy');
  });
});

describe('muted senders', () => {
  it('arrive read for those who muted them', async () => {
    t.server.ctx.db
      .prepare('INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, 0)')
      .run(t.accounts.owner.id, t.accounts.guest.id);
    const id = await sendOk(t.as('guest'), streamMessage('small', 'noise', 'blah'));
    expect(flagsOf(t, t.accounts.owner.id, id)).toEqual(['read']);
    expect(flagsOf(t, t.accounts.admin.id, id)).toEqual([]);
  });
});
