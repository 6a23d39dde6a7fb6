import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertMessage, messageById } from '../../server/db/queries/messages.js';
import { FlagReader } from '../../server/flags/reader.js';
import { Flag } from '../../server/shared/flags.js';
import { expectError } from '../api/support.js';
import { Watcher } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let range: number; // member and admin
let elsewhere: number; // admin only
let bulk: number; // member; filled straight into the database
let ids: number[]; // five messages in `range`, topic "r"
let member: Watcher;

const flagsOf = (userId: number, messageId: number) =>
  new FlagReader(t.server.ctx.db, userId)
    .load([messageId])
    .flagsOf(messageById(t.server.ctx.db, messageId)!);

const channelNarrow = (id: number) => [{ operator: 'channel', operand: id }];

function narrowFlags(params: Record<string, unknown>, who: 'member' | 'admin' = 'member') {
  return t.as(who).post('/messages/flags/narrow', {
    include_anchor: true,
    num_before: 0,
    num_after: 0,
    op: 'add',
    flag: 'read',
    ...params,
  });
}

beforeAll(async () => {
  t = await startTestServer();
  const { member: m, admin: a } = t.accounts;
  range = createChannel(t, { name: 'range', subscribers: [m.id, a.id] });
  elsewhere = createChannel(t, { name: 'elsewhere', subscribers: [a.id] });
  bulk = createChannel(t, { name: 'bulk', subscribers: [m.id] });
  ids = [];
  for (let i = 0; i < 5; i++) ids.push(await sendToChannel(t, 'admin', range, 'r', `r${i}`));
  member = await Watcher.register(t.as('member'));
});
afterAll(() => t.close());
beforeEach(async () => {
  await member.take();
});

describe('POST /messages/flags/narrow: the range', () => {
  it('processes the messages around an anchor and says where it stopped', async () => {
    const res = await narrowFlags({
      anchor: String(ids[2]),
      num_before: 1,
      num_after: 1,
      narrow: channelNarrow(range),
      flag: 'starred',
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      processed_count: 3,
      updated_count: 3,
      first_processed_id: ids[1],
      last_processed_id: ids[3],
      found_oldest: false,
      found_newest: false,
    });
    const [event] = await member.take('update_message_flags');
    expect(event).toMatchObject({ op: 'add', flag: 'starred', messages: ids.slice(1, 4) });
    // Again: same range, nothing left to change.
    const again = await narrowFlags({
      anchor: String(ids[2]),
      num_before: 1,
      num_after: 1,
      narrow: channelNarrow(range),
      flag: 'starred',
    });
    expect(again.body).toMatchObject({ processed_count: 3, updated_count: 0 });
    await narrowFlags({
      anchor: 'oldest',
      num_after: 10,
      narrow: channelNarrow(range),
      op: 'remove',
      flag: 'starred',
    });
  });

  it('reaches both ends from newest and oldest', async () => {
    const fromNewest = await narrowFlags({
      anchor: 'newest',
      num_before: 100,
      narrow: [['stream', 'range']],
      flag: 'collapsed',
    });
    expect(fromNewest.body).toMatchObject({
      processed_count: 5,
      updated_count: 5,
      first_processed_id: ids[0],
      last_processed_id: ids[4],
      found_oldest: true,
      found_newest: true,
    });
    const fromOldest = await narrowFlags({
      anchor: 'oldest',
      num_after: 2,
      narrow: channelNarrow(range),
      op: 'remove',
      flag: 'collapsed',
    });
    expect(fromOldest.body).toMatchObject({
      processed_count: 2,
      updated_count: 2,
      first_processed_id: ids[0],
      last_processed_id: ids[1],
      found_oldest: true,
      found_newest: false,
    });
  });

  it('continues from the first unread message, else from the newest', async () => {
    const m = t.accounts.member.id;
    await t
      .as('member')
      .post('/messages/flags', { messages: ids.slice(0, 2), op: 'add', flag: 'read' });
    await member.take();
    const res = await narrowFlags({
      anchor: 'first_unread',
      num_before: 0,
      num_after: 1,
      narrow: channelNarrow(range),
    });
    expect(res.body).toMatchObject({
      processed_count: 2,
      updated_count: 2,
      first_processed_id: ids[2],
      last_processed_id: ids[3],
      found_newest: false,
    });
    expect(flagsOf(m, ids[4]!) & Flag.read).toBe(0);
    const [event] = await member.take('update_message_flags');
    expect(event).toEqual({
      type: 'update_message_flags',
      op: 'add',
      operation: 'add',
      flag: 'read',
      messages: [ids[2], ids[3]],
      all: false,
      id: expect.any(Number),
    });
    // The bulk pattern: repeat from last_processed_id until found_newest.
    const next = await narrowFlags({
      anchor: String(res.body.last_processed_id),
      include_anchor: false,
      num_after: 2,
      narrow: channelNarrow(range),
    });
    expect(next.body).toMatchObject({
      processed_count: 1,
      updated_count: 1,
      first_processed_id: ids[4],
      found_newest: true,
    });
    // Nothing unread: first_unread means the newest message.
    const none = await narrowFlags({
      anchor: 'first_unread',
      num_before: 1,
      num_after: 1,
      narrow: channelNarrow(range),
    });
    expect(none.body).toMatchObject({
      processed_count: 1,
      updated_count: 0,
      first_processed_id: ids[4],
      last_processed_id: ids[4],
      found_newest: true,
    });
  });

  it('excludes the anchor at an end of the range only', async () => {
    const res = await narrowFlags({
      anchor: String(ids[2]),
      include_anchor: false,
      num_before: 5,
      narrow: channelNarrow(range),
      flag: 'starred',
    });
    expect(res.body).toMatchObject({
      processed_count: 2,
      first_processed_id: ids[0],
      last_processed_id: ids[1],
    });
    expectError(
      await narrowFlags({
        anchor: String(ids[2]),
        include_anchor: false,
        num_before: 1,
        num_after: 1,
        narrow: channelNarrow(range),
      }),
      400,
      'BAD_REQUEST',
      'The anchor can only be excluded at an end of the range',
    );
    await narrowFlags({
      anchor: 'oldest',
      num_after: 9,
      narrow: [],
      op: 'remove',
      flag: 'starred',
    });
  });

  it('reports an empty range with null ids', async () => {
    const res = await narrowFlags({
      anchor: 'newest',
      num_before: 10,
      narrow: [...channelNarrow(range), { operator: 'topic', operand: 'nothing here' }],
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      processed_count: 0,
      updated_count: 0,
      first_processed_id: null,
      last_processed_id: null,
      found_oldest: true,
      found_newest: true,
    });
  });
});

describe('POST /messages/flags/narrow: unread and history', () => {
  it('marks unread with message_details, and skips channels the user left', async () => {
    const outside = await sendToChannel(t, 'admin', elsewhere, 'out');
    const res = await narrowFlags({
      anchor: 'newest',
      num_before: 100,
      narrow: [],
      op: 'remove',
    });
    // Every message the member can see: the range (received) and, by history, none of elsewhere.
    expect(res.body.ignored_because_not_subscribed_channels).toEqual([]);
    const [event] = await member.take('update_message_flags');
    expect(event.message_details[ids[0]!]).toEqual({
      type: 'stream',
      stream_id: range,
      topic: 'r',
      unmuted_stream_msg: true,
    });
    // Naming the channel brings its history in, which cannot be marked unread.
    const history = await narrowFlags({
      anchor: 'newest',
      num_before: 10,
      narrow: channelNarrow(elsewhere),
      op: 'remove',
    });
    expect(history.body).toMatchObject({
      processed_count: 1,
      updated_count: 0,
      first_processed_id: outside,
      ignored_because_not_subscribed_channels: [elsewhere],
    });
    // Starring that history works and makes a historical row.
    await narrowFlags({
      anchor: 'newest',
      num_before: 10,
      narrow: channelNarrow(elsewhere),
      flag: 'starred',
    });
    expect(flagsOf(t.accounts.member.id, outside)).toBe(Flag.read | Flag.historical | Flag.starred);
    await t.as('member').post('/mark_all_as_read');
  });

  it('lowers the counts so one request touches at most 5000 messages', async () => {
    const db = t.server.ctx.db;
    const first = t.server.ctx.transaction(() => {
      let id = 0;
      for (let i = 0; i < 5200; i++) {
        const n = insertMessage(db, {
          sender_id: t.accounts.admin.id,
          stream_id: bulk,
          dm_group_id: null,
          topic: 'bulk',
          content: 'x',
          rendered_content: '<p>x</p>',
          date_sent: 0,
          sending_client: 'test',
        });
        if (i === 0) id = n;
      }
      return id;
    });
    const newest = await narrowFlags({
      anchor: 'newest',
      num_before: 9000,
      narrow: channelNarrow(bulk),
    });
    expect(newest.body).toMatchObject({
      processed_count: 5000,
      found_oldest: false,
      found_newest: true,
    });
    expect(newest.body.first_processed_id).toBe(first + 200);
    const middle = await narrowFlags({
      anchor: String(first + 2600),
      num_before: 4000,
      num_after: 4000,
      narrow: channelNarrow(bulk),
      flag: 'starred',
    });
    // 2500 before, the anchor and 2500 after.
    expect(middle.body).toMatchObject({
      processed_count: 5001,
      updated_count: 5001,
      first_processed_id: first + 100,
      last_processed_id: first + 5100,
    });
    expect(middle.body.processed_count).toBeLessThanOrEqual(4000 + 1 + 4000);
  });
});

describe('POST /messages/flags/narrow: errors', () => {
  it('checks the anchor, the counts, the narrow and the flag', async () => {
    const base = { narrow: [], num_before: 0, num_after: 1, op: 'add', flag: 'read' };
    expectError(
      await t.as('member').post('/messages/flags/narrow', base),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'anchor' argument",
      { var_name: 'anchor' },
    );
    expectError(
      await t.as('member').post('/messages/flags/narrow', { ...base, anchor: 'sideways' }),
      400,
      'BAD_REQUEST',
      'Invalid anchor',
    );
    const negative = await t
      .as('member')
      .post('/messages/flags/narrow', { ...base, anchor: 'newest', num_before: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.code).toBe('BAD_REQUEST');
    const badNarrow = await narrowFlags({ anchor: 'newest', narrow: [['nonsense', 'x']] });
    expect(badNarrow.status).toBe(400);
    expect(badNarrow.body.msg).toMatch(/^Invalid narrow operator/);
    expectError(
      await narrowFlags({ anchor: 'newest', narrow: [], flag: 'mentioned' }),
      400,
      'BAD_REQUEST',
      "Flag not editable: 'mentioned'",
    );
    expectError(
      await narrowFlags({ anchor: 'newest', narrow: [], op: 'flip' }),
      400,
      'BAD_REQUEST',
      "Invalid message flag operation: 'flip'",
    );
  });
});
