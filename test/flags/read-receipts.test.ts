import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let reader: Account;
let shy: Account; // send_read_receipts off
let general: number; // member, admin, reader, shy, bot, guest
let secret: number; // private, history not public: admin, reader

const receipts = (who: Parameters<TestServer['as']>[0], id: number) =>
  t.as(who).get(`/messages/${id}/read_receipts`);
const receiptIds = async (who: Parameters<TestServer['as']>[0], id: number) => {
  const res = await receipts(who, id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.user_ids as number[];
};
const markRead = async (who: Parameters<TestServer['as']>[0], ids: number[]) => {
  const res = await t.as(who).post('/messages/flags', { messages: ids, op: 'add', flag: 'read' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const setReceipts = (enabled: boolean) =>
  t.server.ctx.db
    .prepare("UPDATE realm SET settings = json_set(settings, '$.enable_read_receipts', json(?))")
    .run(enabled ? 'true' : 'false');
const db = () => t.server.ctx.db;

beforeAll(async () => {
  t = await startTestServer();
  setReceipts(true);
  reader = await t.createMember('Rita Reader');
  shy = await t.createMember('Shy Sam');
  db()
    .prepare(
      "UPDATE users SET settings = json_set(settings, '$.send_read_receipts', json('false')) WHERE id = ?",
    )
    .run(shy.id);
  const { member, admin, bot, guest } = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [member.id, admin.id, reader.id, shy.id, bot.id, guest.id],
  });
  secret = createChannel(t, {
    name: 'secret',
    private: true,
    historyPublic: false,
    subscribers: [admin.id, reader.id],
  });
});
afterAll(() => t.close());

describe('GET /messages/{id}/read_receipts', () => {
  it('lists no one until others read; never the sender', async () => {
    const id = await sendToChannel(t, 'member', general, 'r1');
    expect(await receiptIds('member', id)).toEqual([]);
    await markRead('member', [id]);
    expect(await receiptIds('member', id)).toEqual([]);
    await markRead(reader, [id]);
    expect(await receiptIds('member', id)).toEqual([reader.id]);
    await markRead('admin', [id]);
    expect(await receiptIds('guest', id)).toEqual(
      [t.accounts.admin.id, reader.id].sort((a, b) => a - b),
    );
  });

  it('counts watermark reads (whole channel marked read) and bots', async () => {
    const id = await sendToChannel(t, 'member', general, 'r2');
    const res = await t.as('bot').post('/mark_stream_as_read', { stream_id: general });
    expect(res.status).toBe(200);
    await markRead(reader, [id]);
    expect(await receiptIds('member', id)).toEqual(
      [t.accounts.bot.id, reader.id].sort((a, b) => a - b),
    );
  });

  it('marking unread again removes the reader; out-of-order reads count', async () => {
    const older = await sendToChannel(t, 'member', general, 'r3');
    const newer = await sendToChannel(t, 'member', general, 'r3');
    await markRead(reader, [newer]); // above the watermark, older still unread
    expect(await receiptIds('member', newer)).toContain(reader.id);
    expect(await receiptIds('member', older)).not.toContain(reader.id);
    await markRead(reader, [older]);
    expect(await receiptIds('member', older)).toContain(reader.id);
    const res = await t
      .as(reader)
      .post('/messages/flags', { messages: [older], op: 'remove', flag: 'read' });
    expect(res.status).toBe(200);
    expect(await receiptIds('member', older)).not.toContain(reader.id);
    expect(await receiptIds('member', newer)).toContain(reader.id);
  });

  it('leaves out users who do not send read receipts', async () => {
    const id = await sendToChannel(t, 'member', general, 'r4');
    await markRead(shy, [id]);
    await markRead(reader, [id]);
    expect(await receiptIds('member', id)).toEqual([reader.id]);
  });

  it('leaves out users who muted the viewer and users the viewer muted', async () => {
    const id = await sendToChannel(t, 'admin', general, 'r5');
    await markRead(reader, [id]);
    await markRead('member', [id]);
    expect(await receiptIds('guest', id)).toEqual([t.accounts.member.id, reader.id]);
    const mute = db().prepare(
      'INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, 0)',
    );
    mute.run(reader.id, t.accounts.guest.id); // reader muted guest
    mute.run(t.accounts.guest.id, t.accounts.member.id); // guest muted member
    expect(await receiptIds('guest', id)).toEqual([]);
    expect(await receiptIds('moderator', id)).toEqual([t.accounts.member.id, reader.id]);
    db().prepare('DELETE FROM muted_users').run();
  });

  it('leaves out deactivated users', async () => {
    const gone = await t.createMember('Gone Gary');
    const channel = createChannel(t, {
      name: 'with-gone',
      subscribers: [t.accounts.member.id, gone.id],
    });
    const id = await sendToChannel(t, 'member', channel, 'r6');
    await markRead(gone, [id]);
    expect(await receiptIds('member', id)).toEqual([gone.id]);
    db().prepare('UPDATE users SET is_active = 0 WHERE id = ?').run(gone.id);
    expect(await receiptIds('member', id)).toEqual([]);
  });

  it('does not count users who subscribed after the message (not received)', async () => {
    const id = await sendToChannel(t, 'member', general, 'r7');
    const late = await t.createMember('Late Lou');
    const res = await t.as(late).post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'general' }]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Subscribing set the watermark past the message: it reads as read, but was never received.
    expect(await receiptIds('member', id)).not.toContain(late.id);
    // Starring it creates a historical row with read: that counts, as Zulip's historical rows do.
    await t.as(late).post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    expect(await receiptIds('member', id)).toContain(late.id);
  });

  it('works for direct messages', async () => {
    const id = await sendDirect(t, 'member', [reader.id, shy.id]);
    expect(await receiptIds('member', id)).toEqual([]);
    await markRead(reader, [id]);
    await markRead(shy, [id]);
    expect(await receiptIds('member', id)).toEqual([reader.id]);
    expect(await receiptIds(reader, id)).toEqual([reader.id]);
    await t.as(reader).post('/mark_all_as_read', {});
    expect(await receiptIds('member', id)).toEqual([reader.id]);
  });

  it('requires access to the message', async () => {
    const dm = await sendDirect(t, 'member', [reader.id]);
    expectError(await receipts('admin', dm), 400, 'BAD_REQUEST', 'Invalid message(s)');
    const hidden = await sendToChannel(t, 'admin', secret, 'r8');
    expectError(await receipts('member', hidden), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await receipts('member', 999999), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expect(await receiptIds(reader, hidden)).toEqual([]);
  });

  it('checks access before the organization setting, then refuses when off', async () => {
    const id = await sendToChannel(t, 'member', general, 'r9');
    setReceipts(false);
    try {
      expectError(
        await receipts('member', id),
        400,
        'BAD_REQUEST',
        'Read receipts are disabled in this organization.',
      );
      expectError(await receipts('member', 999999), 400, 'BAD_REQUEST', 'Invalid message(s)');
    } finally {
      setReceipts(true);
    }
  });

  it('requires authentication', async () => {
    const id = await sendToChannel(t, 'member', general, 'r10');
    const res = await t.anonymous().get(`/messages/${id}/read_receipts`);
    expect(res.status).toBe(401);
  });
});
