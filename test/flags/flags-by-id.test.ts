import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readThroughOf } from '../../server/db/queries/flags.js';
import { messageById } from '../../server/db/queries/messages.js';
import { unreadCount } from '../../server/db/queries/unread.js';
import { FlagReader } from '../../server/flags/reader.js';
import { Flag } from '../../server/shared/flags.js';
import { expectError } from '../api/support.js';
import { Watcher } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { allUnreadIds, messageState } from './support.js';

let t: TestServer;
let other: Account;
let general: number; // public: member, admin, other, guest
let elsewhere: number; // public: admin only
let secret: number; // private: admin only
let member: Watcher;
let memberCapable: Watcher; // same user, empty_topic_name capability
let admin: Watcher;

const flagsOf = (userId: number, messageId: number) =>
  new FlagReader(t.server.ctx.db, userId)
    .load([messageId])
    .flagsOf(messageById(t.server.ctx.db, messageId)!);
const rowOf = (userId: number, messageId: number) =>
  t.server.ctx.db
    .prepare('SELECT flags FROM user_message_flags WHERE user_id = ? AND message_id = ?')
    .get(userId, messageId) as { flags: number } | undefined;
const flags = (who: FixtureName | Account, params: Record<string, unknown>) =>
  t.as(who).post('/messages/flags', params);

beforeAll(async () => {
  t = await startTestServer();
  other = await t.createMember('Otto Other');
  const { member: m, admin: a, guest: g } = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [m.id, a.id, other.id, g.id] });
  elsewhere = createChannel(t, { name: 'elsewhere', subscribers: [a.id] });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.id] });
  member = await Watcher.register(t.as('member'));
  memberCapable = await Watcher.register(t.as('member'), {
    client_capabilities: { empty_topic_name: true },
  });
  admin = await Watcher.register(t.as('admin'));
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const w of [member, memberCapable, admin]) await w.take();
});

describe('POST /messages/flags: validation', () => {
  it('rejects unknown flags before anything else', async () => {
    const id = await sendToChannel(t, 'admin', general, 'v');
    expectError(
      await flags('member', { messages: [id], op: 'toggle', flag: 'shiny' }),
      400,
      'BAD_REQUEST',
      "Invalid flag: 'shiny'",
    );
    // Internal flags are not API flags at all.
    expectError(
      await flags('member', { messages: [id], op: 'add', flag: 'is_private' }),
      400,
      'BAD_REQUEST',
      "Invalid flag: 'is_private'",
    );
  });

  it('refuses flags that follow from content', async () => {
    const id = await sendToChannel(t, 'admin', general, 'v');
    for (const flag of [
      'mentioned',
      'stream_wildcard_mentioned',
      'topic_wildcard_mentioned',
      'wildcard_mentioned',
      'has_alert_word',
      'historical',
    ]) {
      expectError(
        await flags('member', { messages: [id], op: 'toggle', flag }),
        400,
        'BAD_REQUEST',
        `Flag not editable: '${flag}'`,
      );
    }
  });

  it('names an unknown operation', async () => {
    const id = await sendToChannel(t, 'admin', general, 'v');
    expectError(
      await flags('member', { messages: [id], op: 'toggle', flag: 'starred' }),
      400,
      'BAD_REQUEST',
      "Invalid message flag operation: 'toggle'",
    );
  });

  it('requires every parameter and a list of ids', async () => {
    expectError(
      await flags('member', { op: 'add', flag: 'read' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'messages' argument",
      { var_name: 'messages' },
    );
    expectError(
      await flags('member', { messages: [1], flag: 'read' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'op' argument",
      { var_name: 'op' },
    );
    const res = await flags('member', { messages: '5', op: 'add', flag: 'read' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('messages is not a list');
  });

  it('answers "Invalid message(s)" for messages the user may not see, and changes nothing', async () => {
    const visible = await sendToChannel(t, 'admin', general, 'v');
    const hidden = await sendToChannel(t, 'admin', secret, 'v');
    const dm = await sendDirect(t, 'admin', [other.id]);
    for (const ids of [[visible, hidden], [dm], [987_654]]) {
      expectError(
        await flags('member', { messages: ids, op: 'add', flag: 'starred' }),
        400,
        'BAD_REQUEST',
        'Invalid message(s)',
      );
    }
    expect(flagsOf(t.accounts.member.id, visible) & Flag.starred).toBe(0);
    // A guest cannot reach a public channel they are not in.
    const outside = await sendToChannel(t, 'admin', elsewhere, 'v');
    expectError(
      await flags('guest', { messages: [outside], op: 'add', flag: 'starred' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
  });

  it('ignores what would not change the default of an unreceived message, as Zulip does', async () => {
    const res = await flags('member', { messages: [987_654], op: 'add', flag: 'read' });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      messages: [987_654],
    });
  });
});

describe('POST /messages/flags: read', () => {
  it('marks read, reports the ids given and tells only the user', async () => {
    const a = await sendToChannel(t, 'admin', general, 'read me');
    const b = await sendToChannel(t, 'admin', general, 'read me');
    const res = await flags('member', { messages: [b, a, b], op: 'add', flag: 'read' });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      messages: [b, a, b],
    });
    expect(flagsOf(t.accounts.member.id, a)).toBe(Flag.read);
    const events = await member.take('update_message_flags');
    expect(events).toEqual([
      {
        type: 'update_message_flags',
        op: 'add',
        operation: 'add',
        flag: 'read',
        messages: [b, a],
        all: false,
        id: expect.any(Number),
      },
    ]);
    expect(await memberCapable.take('update_message_flags')).toHaveLength(1);
    expect(await admin.take('update_message_flags')).toEqual([]);
    // Only what changed is listed.
    await flags('member', { messages: [a], op: 'add', flag: 'read' });
    expect((await member.take('update_message_flags'))[0].messages).toEqual([]);
  });

  it('moves the watermark when reading in order and leaves no rows behind', async () => {
    await t.as('member').post('/mark_stream_as_read', { stream_id: general });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await sendToChannel(t, 'admin', general, 'in order'));
    const { member: m } = t.accounts;
    const db = t.server.ctx.db;
    // Out of order first: a row, the watermark stays below the older unread messages.
    await flags('member', { messages: [ids[3]], op: 'add', flag: 'read' });
    expect(rowOf(m.id, ids[3]!)).toEqual({ flags: Flag.read });
    const before = readThroughOf(db, m.id, { kind: 'channel', id: general })!;
    expect(before).toBeLessThan(ids[0]!);
    for (const id of ids.slice(0, 3)) {
      await flags('member', { messages: [id], op: 'add', flag: 'read' });
    }
    // The watermark now passes the row, which said nothing but "read".
    expect(readThroughOf(db, m.id, { kind: 'channel', id: general })).toBe(ids[4]! - 1);
    expect(rowOf(m.id, ids[3]!)).toBeUndefined();
    await flags('member', { messages: ids.slice(4), op: 'add', flag: 'read' });
    expect(readThroughOf(db, m.id, { kind: 'channel', id: general })).toBe(ids[5]);
    for (const id of ids) expect(rowOf(m.id, id)).toBeUndefined();
  });

  it('marks unread below the watermark with a row, and reading again removes it', async () => {
    const id = await sendToChannel(t, 'admin', general, 'again');
    await t.as('member').post('/mark_stream_as_read', { stream_id: general });
    const m = t.accounts.member.id;
    const unreadBefore = unreadCount(t.server.ctx.db, m);
    await flags('member', { messages: [id], op: 'remove', flag: 'read' });
    expect(rowOf(m, id)).toEqual({ flags: 0 });
    expect(unreadCount(t.server.ctx.db, m)).toBe(unreadBefore + 1);
    expect(allUnreadIds((await messageState(t.as('member'))).unread_msgs)).toContain(id);
    await flags('member', { messages: [id], op: 'add', flag: 'read' });
    expect(rowOf(m, id)).toBeUndefined();
    expect(unreadCount(t.server.ctx.db, m)).toBe(unreadBefore);
  });

  it('skips unsubscribed channels when marking unread and names them', async () => {
    const mine = await sendToChannel(t, 'admin', general, 'mine');
    const notMine = await sendToChannel(t, 'admin', elsewhere, 'not mine');
    const dm = await sendDirect(t, 'admin', [t.accounts.member.id]);
    await flags('member', { messages: [mine, dm], op: 'add', flag: 'read' });
    await member.take();
    const res = await flags('member', {
      messages: [notMine, mine, dm],
      op: 'remove',
      flag: 'read',
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      messages: [notMine, mine, dm],
      ignored_because_not_subscribed_channels: [elsewhere],
    });
    expect(flagsOf(t.accounts.member.id, notMine)).toBe(Flag.read | Flag.historical);
    expect(flagsOf(t.accounts.member.id, mine) & Flag.read).toBe(0);
    const [event] = await member.take('update_message_flags');
    expect(event).toMatchObject({ op: 'remove', operation: 'remove', flag: 'read', all: false });
    expect(event.messages).toEqual([mine, dm]);
    expect(event.message_details).toEqual({
      [mine]: { type: 'stream', stream_id: general, topic: 'mine', unmuted_stream_msg: true },
      [dm]: { type: 'private', user_ids: [t.accounts.admin.id] },
    });
  });

  it('describes direct messages, mentions, muted topics and the empty topic in message_details', async () => {
    const { member: m, admin: a } = t.accounts;
    const self = await sendDirect(t, 'member', [m.id], 'note', { read_by_sender: true });
    const group = await sendDirect(t, 'admin', [other.id, m.id], 'hi @**Mel Member**');
    const empty = await sendToChannel(t, 'admin', general, '', 'no topic here');
    const muted = await sendToChannel(t, 'admin', general, 'hush', '@**all** hello');
    await t.as('member').post('/user_topics', {
      stream_id: general,
      topic: 'hush',
      visibility_policy: 1,
    });
    const ids = [self, group, empty, muted];
    await flags('member', { messages: ids, op: 'add', flag: 'read' });
    await member.take();
    await memberCapable.take();
    await flags('member', { messages: ids, op: 'remove', flag: 'read' });
    const [legacy] = await member.take('update_message_flags');
    expect(legacy.message_details).toEqual({
      [self]: { type: 'private', user_ids: [] },
      [group]: {
        type: 'private',
        user_ids: [a.id, other.id].sort((x, y) => x - y),
        mentioned: true,
      },
      [empty]: {
        type: 'stream',
        stream_id: general,
        topic: 'general chat',
        unmuted_stream_msg: true,
      },
      // A wildcard mention in a muted topic is not a mention.
      [muted]: { type: 'stream', stream_id: general, topic: 'hush', unmuted_stream_msg: false },
    });
    const [capable] = await memberCapable.take('update_message_flags');
    expect(capable.message_details[empty].topic).toBe('');
    await flags('member', { messages: ids, op: 'add', flag: 'read' });
  });
});

describe('POST /messages/flags: marking unread in channels one is not subscribed to', () => {
  const markUnread = (who: 'member' | 'guest', id: number) =>
    flags(who, { messages: [id], op: 'remove', flag: 'read' });

  it('answers for a private message exactly as for a message that does not exist', async () => {
    const hidden = await sendToChannel(t, 'admin', secret, 'plans');
    const missing = hidden + 1000;
    for (const who of ['member', 'guest'] as const) {
      expectError(await markUnread(who, missing), 400, 'BAD_REQUEST', 'Invalid message(s)');
      // Reporting the channel would tell a stranger the message exists, and where.
      const res = await markUnread(who, hidden);
      expectError(res, 400, 'BAD_REQUEST', 'Invalid message(s)');
      expect(JSON.stringify(res.body)).not.toContain(String(secret));
    }
  });

  it('still reports the channel of a message the user may read', async () => {
    const visible = await sendToChannel(t, 'admin', elsewhere, 'news');
    const res = await markUnread('member', visible);
    expect(res.body).toMatchObject({
      result: 'success',
      messages: [visible],
      ignored_because_not_subscribed_channels: [elsewhere],
    });
  });
});

describe('POST /messages/flags: starred and collapsed', () => {
  it('stars a message the user never received, as a historical row', async () => {
    const id = await sendToChannel(t, 'admin', elsewhere, 'worth a star');
    const m = t.accounts.member.id;
    const res = await flags('member', { messages: [id], op: 'add', flag: 'starred' });
    expect(res.body.result).toBe('success');
    expect(rowOf(m, id)).toEqual({ flags: Flag.read | Flag.historical | Flag.starred });
    expect((await messageState(t.as('member'))).starred_messages).toContain(id);
    const [event] = await member.take('update_message_flags');
    expect(event).toMatchObject({ op: 'add', flag: 'starred', messages: [id], all: false });
    expect(event).not.toHaveProperty('message_details');
    // Unstarring returns to the default, so the row goes away.
    await flags('member', { messages: [id], op: 'remove', flag: 'starred' });
    expect(rowOf(m, id)).toBeUndefined();
    const [removed] = await member.take('update_message_flags');
    expect(removed).toMatchObject({ op: 'remove', flag: 'starred', messages: [id] });
    expect(removed).not.toHaveProperty('message_details');
  });

  it('keeps starred and collapsed on received messages as rows, read or not', async () => {
    const id = await sendToChannel(t, 'admin', general, 'star');
    const m = t.accounts.member.id;
    await flags('member', { messages: [id], op: 'add', flag: 'starred' });
    await flags('member', { messages: [id], op: 'add', flag: 'collapsed' });
    expect(rowOf(m, id)).toEqual({ flags: Flag.starred | Flag.collapsed });
    await flags('member', { messages: [id], op: 'add', flag: 'read' });
    expect(rowOf(m, id)).toEqual({ flags: Flag.starred | Flag.collapsed | Flag.read });
    await flags('member', { messages: [id], op: 'remove', flag: 'starred' });
    await flags('member', { messages: [id], op: 'remove', flag: 'collapsed' });
    expect(rowOf(m, id)).toBeUndefined();
    expect(flagsOf(m, id)).toBe(Flag.read);
  });

  it('lets an administrator star private-channel history only where they may read it', async () => {
    const id = await sendToChannel(t, 'admin', secret, 'secret');
    expectError(
      await flags('owner', { messages: [id], op: 'add', flag: 'starred' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    expect((await flags('admin', { messages: [id], op: 'add', flag: 'starred' })).body.result).toBe(
      'success',
    );
  });
});
