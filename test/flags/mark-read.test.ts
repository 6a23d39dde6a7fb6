import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readThroughOf } from '../../server/db/queries/flags.js';
import { insertSubscription } from '../../server/db/queries/streams.js';
import { expectError } from '../api/support.js';
import { Watcher } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { allUnreadIds, messageState } from './support.js';

let t: TestServer;
let one: number; // member, admin
let two: number; // member, admin
let secret: number; // private: admin
let member: Watcher;
let admin: Watcher;

const unreadOfMember = async () => allUnreadIds((await messageState(t.as('member'))).unread_msgs);
/** The member's flag rows on messages from `since` on. */
const rowsOfMember = (since: number) =>
  (
    t.server.ctx.db
      .prepare(
        'SELECT message_id, flags FROM user_message_flags WHERE user_id = ? AND message_id >= ? ORDER BY 1',
      )
      .all(t.accounts.member.id, since) as { message_id: number; flags: number }[]
  ).map((r) => [r.message_id, r.flags]);

beforeAll(async () => {
  t = await startTestServer();
  const { member: m, admin: a } = t.accounts;
  one = createChannel(t, { name: 'one', subscribers: [m.id, a.id] });
  two = createChannel(t, { name: 'two', subscribers: [m.id, a.id] });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.id] });
  member = await Watcher.register(t.as('member'));
  admin = await Watcher.register(t.as('admin'));
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.as('member').post('/mark_all_as_read');
  await member.take();
  await admin.take();
});

describe('POST /mark_stream_as_read', () => {
  it('reads one channel, moves its watermark and tells only the user', async () => {
    const a = await sendToChannel(t, 'admin', one, 'x');
    const b = await sendToChannel(t, 'admin', one, 'y', '@**Mel Member**');
    const elsewhere = await sendToChannel(t, 'admin', two, 'x');
    const res = await t.as('member').post('/mark_stream_as_read', { stream_id: one });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await unreadOfMember()).toEqual([elsewhere]);
    expect(readThroughOf(t.server.ctx.db, t.accounts.member.id, { kind: 'channel', id: one })).toBe(
      b,
    );
    // Only the mention survives as a row: it is more than "read".
    expect(rowsOfMember(a)).toEqual([[b, 1 | 8]]);
    const events = await member.take('update_message_flags');
    expect(events).toEqual([
      {
        type: 'update_message_flags',
        op: 'add',
        operation: 'add',
        flag: 'read',
        messages: [a, b],
        all: false,
        id: expect.any(Number),
      },
    ]);
    expect(await admin.take('update_message_flags')).toEqual([]);
  });

  it('reads messages marked unread below the watermark too, and is quiet when nothing is unread', async () => {
    const a = await sendToChannel(t, 'admin', one, 'x');
    await t.as('member').post('/mark_stream_as_read', { stream_id: one });
    await t.as('member').post('/messages/flags', { messages: [a], op: 'remove', flag: 'read' });
    await member.take();
    await t.as('member').post('/mark_stream_as_read', { stream_id: one });
    expect(await unreadOfMember()).toEqual([]);
    expect(rowsOfMember(a)).toEqual([]);
    expect((await member.take('update_message_flags'))[0].messages).toEqual([a]);
    await t.as('member').post('/mark_stream_as_read', { stream_id: one });
    expect(await member.take('update_message_flags')).toEqual([]);
  });

  it('needs a channel the user may read', async () => {
    for (const stream_id of [secret, 424242]) {
      expectError(
        await t.as('member').post('/mark_stream_as_read', { stream_id }),
        400,
        'BAD_REQUEST',
        'Invalid channel ID',
      );
    }
    expectError(
      await t.as('member').post('/mark_stream_as_read', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'stream_id' argument",
      { var_name: 'stream_id' },
    );
  });
});

describe('POST /mark_topic_as_read', () => {
  it('reads one topic, case-insensitively, and leaves the others unread', async () => {
    const early = await sendToChannel(t, 'admin', one, 'later');
    const a = await sendToChannel(t, 'admin', one, 'Lunch');
    const b = await sendToChannel(t, 'admin', one, 'lunch');
    const res = await t
      .as('member')
      .post('/mark_topic_as_read', { stream_id: one, topic_name: 'LUNCH' });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await unreadOfMember()).toEqual([early]);
    expect((await member.take('update_message_flags'))[0]).toMatchObject({
      op: 'add',
      flag: 'read',
      messages: [a, b],
      all: false,
    });
    // The watermark cannot pass the older unread message of another topic.
    expect(
      readThroughOf(t.server.ctx.db, t.accounts.member.id, { kind: 'channel', id: one }),
    ).toBeLessThan(early);
    await t.as('member').post('/mark_topic_as_read', { stream_id: one, topic_name: 'later' });
    expect(readThroughOf(t.server.ctx.db, t.accounts.member.id, { kind: 'channel', id: one })).toBe(
      b,
    );
    expect(rowsOfMember(early)).toEqual([]);
  });

  it('reads only the empty topic for "", (no topic) and the display name, never the channel', async () => {
    for (const name of ['', '(no topic)', 'general chat']) {
      const empty = await sendToChannel(t, 'admin', one, '');
      const named = await sendToChannel(t, 'admin', one, 'named');
      const res = await t
        .as('member')
        .post('/mark_topic_as_read', { stream_id: one, topic_name: name });
      expect(res.body).toEqual({ result: 'success', msg: '' });
      expect(await unreadOfMember()).toEqual([named]);
      expect((await member.take('update_message_flags'))[0]).toMatchObject({
        op: 'add',
        flag: 'read',
        messages: [empty],
      });
      await t.as('member').post('/mark_topic_as_read', { stream_id: one, topic_name: 'named' });
      expect(await unreadOfMember()).toEqual([]);
      await member.take('update_message_flags');
    }
  });

  it('refuses topics the user has no message in', async () => {
    expectError(
      await t.as('member').post('/mark_topic_as_read', { stream_id: one, topic_name: 'nope' }),
      400,
      'BAD_REQUEST',
      "No such topic 'nope'",
    );
    // History from before subscribing does not count either.
    const late = await t.createMember('Lou Late');
    await sendToChannel(t, 'admin', two, 'old news');
    t.server.ctx.transaction(() => insertSubscription(t.server.ctx.db, two, late.id, '#abcdef'));
    expectError(
      await t.as(late).post('/mark_topic_as_read', { stream_id: two, topic_name: 'old news' }),
      400,
      'BAD_REQUEST',
      "No such topic 'old news'",
    );
    expectError(
      await t.as('member').post('/mark_topic_as_read', { stream_id: secret, topic_name: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await t.as('member').post('/mark_topic_as_read', { stream_id: one }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'topic_name' argument",
      { var_name: 'topic_name' },
    );
  });
});

describe('POST /mark_all_as_read', () => {
  it('reads channels and direct messages and reports completion', async () => {
    const { admin: a, member: m } = t.accounts;
    const ids = [
      await sendToChannel(t, 'admin', one, 'x'),
      await sendToChannel(t, 'admin', two, 'y'),
      await sendDirect(t, 'admin', [m.id]),
      await sendDirect(t, 'admin', [m.id, t.accounts.owner.id]),
      await sendDirect(t, 'member', [m.id], 'note to self', { read_by_sender: false }),
    ];
    const kept = await sendToChannel(t, 'admin', one, 'z');
    await t.as('member').post('/messages/flags', { messages: [kept], op: 'add', flag: 'read' });
    await t.as('member').post('/messages/flags', { messages: [kept], op: 'remove', flag: 'read' });
    await member.take();
    expect(await unreadOfMember()).toEqual([...ids, kept]);
    const res = await t.as('member').post('/mark_all_as_read');
    expect(res.body).toEqual({ result: 'success', msg: '', complete: true });
    expect(await unreadOfMember()).toEqual([]);
    expect(rowsOfMember(ids[0]!)).toEqual([]);
    const events = await member.take('update_message_flags');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ op: 'add', operation: 'add', flag: 'read', all: false });
    expect(events[0].messages).toEqual([...ids, kept]);
    expect(await admin.take('update_message_flags')).toEqual([]);
    expect(a.id).not.toBe(m.id);
  });
});
