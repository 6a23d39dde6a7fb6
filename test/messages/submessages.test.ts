import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

type Who = FixtureName | Account;
let t: TestServer;
let late: Account; // subscribes to general after the messages were sent
let general: number; // public: member, admin, guest, late (later)
let secret: number; // private: admin only
let w: Watchers;

const fetchMessage = async (who: Who, id: number) => {
  const res = await t.as(who).get(`/messages/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message as { submessages: Array<Record<string, unknown>> };
};
const submit = (who: Who, messageId: number, content: unknown, msgType = 'widget') =>
  t.as(who).post('/submessage', {
    message_id: messageId,
    msg_type: msgType,
    content: typeof content === 'string' ? content : JSON.stringify(content),
  });
const submitOk = async (who: Who, messageId: number, content: unknown) => {
  const res = await submit(who, messageId, content);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const widgetOf = async (id: number) => {
  const { submessages } = await fetchMessage('member', id);
  return submessages.length === 0 ? null : JSON.parse(submessages[0]!.content as string);
};

beforeAll(async () => {
  t = await startTestServer();
  late = await t.createMember('Late Lou');
  const { member, admin, guest } = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [member.id, admin.id, guest.id] });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [admin.id] });
  w = new Watchers(t);
  for (const name of ['member', 'admin', 'guest', 'moderator'] as const) await w.add(name);
  await w.add('late', late);
});
afterAll(() => t.close());
beforeEach(() => w.clear());

describe('widgets declared by message content', () => {
  it('a /poll message gets a widget submessage with question and options', async () => {
    const id = await sendToChannel(
      t,
      'member',
      general,
      'polls',
      '/poll  Lunch where?\n- Pizza\n* Sushi place\n\n   Tacos  ',
    );
    const { submessages } = await fetchMessage('admin', id);
    expect(submessages).toEqual([
      {
        id: expect.any(Number),
        message_id: id,
        sender_id: t.accounts.member.id,
        msg_type: 'widget',
        content: expect.any(String),
      },
    ]);
    expect(JSON.parse(submessages[0]!.content as string)).toEqual({
      widget_type: 'poll',
      extra_data: { question: 'Lunch where?', options: ['Pizza', 'Sushi place', 'Tacos'] },
    });
  });

  it('a /poll without a question has an empty one', async () => {
    const id = await sendToChannel(t, 'member', general, 'polls', '/poll\nyes\nno');
    expect(await widgetOf(id)).toEqual({
      widget_type: 'poll',
      extra_data: { question: '', options: ['yes', 'no'] },
    });
  });

  it('a /todo message gets tasks split at the first ": "', async () => {
    const id = await sendDirect(
      t,
      'member',
      [t.accounts.admin.id],
      '/todo Chores\n- Dishes: before 6: really\nLaundry',
    );
    expect(await widgetOf(id)).toEqual({
      widget_type: 'todo',
      extra_data: {
        task_list_title: 'Chores',
        tasks: [
          { task: 'Dishes', desc: 'before 6: really' },
          { task: 'Laundry', desc: '' },
        ],
      },
    });
  });

  it('other content declares no widget', async () => {
    for (const content of ['/polls a', 'poll /poll', 'hello', '/me waves', '/todos']) {
      const id = await sendToChannel(t, 'member', general, 'polls', content);
      expect(await widgetOf(id), content).toBeNull();
    }
  });

  it('the message event carries the widget submessage', async () => {
    const id = await sendToChannel(t, 'member', general, 'polls', '/poll Q?\na\nb');
    const events = await w.take('message');
    expect(receivers(events)).toEqual(['admin', 'guest', 'member']);
    const message = events.member![0].message;
    expect(message.id).toBe(id);
    expect(message.submessages).toHaveLength(1);
    expect(JSON.parse(message.submessages[0].content)).toMatchObject({ widget_type: 'poll' });
  });

  it('editing the content does not change the widget', async () => {
    const id = await sendToChannel(t, 'member', general, 'polls', 'plain');
    const res = await t.as('member').patch(`/messages/${id}`, { content: '/poll now?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await widgetOf(id)).toBeNull();
  });
});

describe('POST /submessage', () => {
  it('others may add only after the sender has; everyone who received it is told', async () => {
    const id = await sendToChannel(t, 'member', general, 'plain', 'not a widget');
    // late subscribes now: they can see the message but never received it.
    const sub = await t.as(late).post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'general' }]),
    });
    expect(sub.status).toBe(200);
    await w.clear();
    expectError(
      await submit('admin', id, { any: 1 }),
      400,
      'BAD_REQUEST',
      'You cannot attach a submessage to this message.',
    );
    await submitOk('member', id, { any: 'thing' });
    const events = await w.take('submessage');
    expect(receivers(events)).toEqual(['admin', 'guest', 'member']);
    const event = events.admin![0];
    expect(event).toEqual({
      type: 'submessage',
      id: expect.any(Number),
      msg_type: 'widget',
      message_id: id,
      submessage_id: expect.any(Number),
      sender_id: t.accounts.member.id,
      content: '{"any":"thing"}',
    });
    await submitOk('admin', id, { other: true });
    const second = await w.take('submessage');
    expect(receivers(second)).toEqual(['admin', 'guest', 'member']);
    expect(second.member![0]).toMatchObject({ sender_id: t.accounts.admin.id });
    expect(second.member![0].submessage_id).toBeGreaterThan(event.submessage_id);
    // late can see the message, so may add too.
    await submitOk(late, id, { late: 1 });
    const { submessages } = await fetchMessage(late, id);
    expect(submessages.map((s) => [s.sender_id, s.content])).toEqual([
      [t.accounts.member.id, '{"any":"thing"}'],
      [t.accounts.admin.id, '{"other":true}'],
      [late.id, '{"late":1}'],
    ]);
    expect(submessages.map((s) => s.id)).toEqual(
      [...submessages.map((s) => s.id as number)].sort((a, b) => a - b),
    );
  });

  it('a widget message accepts votes from anyone who can see it', async () => {
    const id = await sendToChannel(t, 'member', general, 'polls', '/poll Q\na');
    await w.clear();
    await submitOk('guest', id, { type: 'vote', key: 'canned,0', vote: 1 });
    await submitOk('admin', id, { type: 'vote', key: 'canned,0', vote: -1 });
    const events = await w.take('submessage');
    // late subscribed before this message was sent; moderator never received it.
    expect(receivers(events)).toEqual(['admin', 'guest', 'late', 'member']);
    expect(events.member).toHaveLength(2);
    expect((await fetchMessage('member', id)).submessages).toHaveLength(3);
  });

  it('direct messages: only their members, and only they may add', async () => {
    const id = await sendDirect(t, 'member', [t.accounts.guest.id], '/todo list');
    await w.clear();
    expectError(
      await submit('admin', id, { type: 'strike', key: '1' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    await submitOk('guest', id, { type: 'strike', key: '0,canned' });
    const events = await w.take('submessage');
    expect(receivers(events)).toEqual(['guest', 'member']);
  });

  it('requires access to the message', async () => {
    const hidden = await sendToChannel(t, 'admin', secret, 'x', '/poll hidden');
    expectError(
      await submit('member', hidden, { type: 'vote', key: 'a', vote: 1 }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    expectError(await submit('member', 987654, {}), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expect((await fetchMessage('admin', hidden)).submessages).toHaveLength(1);
  });

  it('rejects content that is not JSON', async () => {
    const id = await sendToChannel(t, 'member', general, 'polls', '/poll Q');
    expectError(
      await submit('member', id, '{nope'),
      400,
      'BAD_REQUEST',
      'Invalid json for submessage',
    );
    expectError(await submit('admin', id, ''), 400, 'BAD_REQUEST', 'Invalid json for submessage');
  });

  it('requires its parameters', async () => {
    const id = await sendToChannel(t, 'member', general, 'polls', '/poll Q');
    const missing = await t.as('member').post('/submessage', { message_id: id, content: '{}' });
    expectError(missing, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'msg_type' argument", {
      var_name: 'msg_type',
    });
    const noContent = await t
      .as('member')
      .post('/submessage', { message_id: id, msg_type: 'widget' });
    expect(noContent.status).toBe(400);
    expect(noContent.body.code).toBe('REQUEST_VARIABLE_MISSING');
    const badId = await t
      .as('member')
      .post('/submessage', { message_id: 'x', msg_type: 'widget', content: '{}' });
    expect(badId.status).toBe(400);
  });

  it('validates poll data as Zulip does', async () => {
    const id = await sendToChannel(t, 'member', general, 'polls', '/poll Q\nA');
    await submitOk('admin', id, { type: 'new_option', option: 'B', idx: 1000 });
    await submitOk('member', id, { type: 'question', question: 'New?' });
    const cases: Array<[Who, unknown, string]> = [
      ['admin', [1], 'poll data is not a dict'],
      ['admin', '"str"', 'poll data is not a dict'],
      ['admin', {}, 'type key is missing from poll data'],
      ['admin', { type: 3 }, 'poll data["type"] is not a string'],
      ['admin', { type: 'dance' }, 'Unknown type for poll data: dance'],
      ['admin', { type: 'vote', key: 'k' }, 'vote key is missing from poll data'],
      ['admin', { type: 'vote', key: 1, vote: 1 }, 'poll data["key"] is not a string'],
      ['admin', { type: 'vote', key: 'k', vote: 2 }, 'Invalid poll data["vote"]'],
      ['admin', { type: 'vote', key: 'k', vote: 'up' }, 'poll data["vote"] is not an integer'],
      ['admin', { type: 'vote', key: 'k', vote: 1, x: 1 }, 'Unexpected arguments: x'],
      [
        'admin',
        { type: 'question', question: 'Mine?' },
        "You can't edit a question unless you are the author.",
      ],
      ['member', { type: 'question', question: 5 }, 'poll data["question"] is not a string'],
      ['admin', { type: 'new_option', option: 'B', idx: 1001 }, 'poll data["idx"] is too large'],
      ['admin', { type: 'new_option', option: 'B', idx: -1 }, 'poll data["idx"] is too small'],
      [
        'admin',
        { type: 'new_option', option: 'B', idx: 1.5 },
        'poll data["idx"] is not an integer',
      ],
    ];
    for (const [who, content, msg] of cases) {
      expectError(await submit(who, id, content), 400, 'BAD_REQUEST', msg);
    }
    expect((await fetchMessage('member', id)).submessages).toHaveLength(3);
  });

  it('validates to-do data as Zulip does', async () => {
    const id = await sendToChannel(t, 'member', general, 'todos', '/todo Chores');
    await submitOk('admin', id, {
      type: 'new_task',
      key: 0,
      task: 'a',
      desc: '',
      completed: false,
    });
    await submitOk('admin', id, { type: 'strike', key: '0,5' });
    await submitOk('member', id, { type: 'new_task_list_title', title: 'Renamed' });
    const cases: Array<[Who, unknown, string]> = [
      ['admin', null, 'todo data is not a dict'],
      ['admin', { type: 'vote', key: 'k', vote: 1 }, 'Unknown type for todo data: vote'],
      [
        'admin',
        { type: 'new_task', key: 0, task: 'a', desc: '' },
        'completed key is missing from todo data',
      ],
      [
        'admin',
        { type: 'new_task', key: 0, task: 'a', desc: '', completed: 1 },
        'todo data["completed"] is not a boolean',
      ],
      [
        'admin',
        { type: 'new_task', key: 1001, task: 'a', desc: '', completed: false },
        'todo data["key"] is too large',
      ],
      [
        'admin',
        { type: 'new_task', key: '1', task: 'a', desc: '', completed: false },
        'todo data["key"] is not an integer',
      ],
      ['admin', { type: 'strike', key: 0 }, 'todo data["key"] is not a string'],
      [
        'admin',
        { type: 'new_task_list_title', title: 'Mine' },
        "You can't edit the task list title unless you are the author.",
      ],
    ];
    for (const [who, content, msg] of cases) {
      expectError(await submit(who, id, content), 400, 'BAD_REQUEST', msg);
    }
  });

  it('any msg_type and any JSON on a message without a widget', async () => {
    const id = await sendToChannel(t, 'member', general, 'plain', 'just text');
    await submitOk('member', id, [1, 2]);
    const res = await submit('member', id, '"x"', 'custom');
    expect(res.status).toBe(200);
    const { submessages } = await fetchMessage('member', id);
    expect(submessages.map((s) => [s.msg_type, s.content])).toEqual([
      ['widget', '[1,2]'],
      ['custom', '"x"'],
    ]);
  });

  it('taking part follows the topic when the user follows on participation', async () => {
    const id = await sendToChannel(t, 'member', general, 'participate', '/poll Q\nA');
    t.server.ctx.db
      .prepare(
        "UPDATE users SET settings = json_set(settings, '$.automatically_follow_topics_policy', 1) WHERE id = ?",
      )
      .run(t.accounts.admin.id);
    t.server.ctx.db
      .prepare(
        "UPDATE users SET settings = json_set(settings, '$.automatically_follow_topics_policy', 4) WHERE id = ?",
      )
      .run(t.accounts.guest.id);
    await w.clear();
    await submitOk('admin', id, { type: 'vote', key: 'canned,0', vote: 1 });
    await submitOk('guest', id, { type: 'vote', key: 'canned,0', vote: 1 });
    const events = await w.take('user_topic');
    expect(receivers(events)).toEqual(['admin']);
    expect(events.admin).toEqual([
      expect.objectContaining({
        stream_id: general,
        topic_name: 'participate',
        visibility_policy: 3,
      }),
    ]);
    // Already followed: nothing more.
    await submitOk('admin', id, { type: 'vote', key: 'canned,0', vote: -1 });
    expect(receivers(await w.take('user_topic'))).toEqual([]);
  });
});
