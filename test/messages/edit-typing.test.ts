/**
 * POST /messages/{message_id}/typing: "typing while editing" (Zulip's
 * send_message_edit_notification_backend), the typing_edit_message event to
 * the channel's subscribers or the conversation's members who receive
 * typing notifications; only the message's sender, within the edit limit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { setRealm, setUser } from './send-support.js';

let t: TestServer;
let general: number;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.member.id, a.guest.id],
  });
  watchers = new Watchers(t);
  for (const who of ['owner', 'admin', 'member', 'guest']) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

async function post(who: 'owner' | 'member', params: Record<string, unknown>): Promise<number> {
  const res = await t.as(who).post('/messages', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}
const typing = (who: 'owner' | 'member' | 'admin', id: number, op: string) =>
  t.as(who).post(`/messages/${id}/typing`, { op });

describe('POST /messages/{message_id}/typing', () => {
  it('tells the channel’s subscribers that the sender is editing', async () => {
    const id = await post('member', { type: 'stream', to: general, topic: 'plans', content: 'hi' });
    await watchers.clear();
    expect((await typing('member', id, 'start')).body).toEqual({ result: 'success', msg: '' });
    const events = await watchers.take('typing_edit_message');
    expect(receivers(events)).toEqual(['guest', 'member', 'owner']);
    expect(events.owner).toEqual([
      {
        id: expect.any(Number),
        type: 'typing_edit_message',
        op: 'start',
        sender_id: t.accounts.member.id,
        message_id: id,
        recipient: { type: 'channel', channel_id: general, topic: 'plans' },
      },
    ]);
    await typing('member', id, 'stop');
    expect((await watchers.take('typing_edit_message')).guest![0].op).toBe('stop');
  });

  it('tells a direct message’s members, skipping those who turned typing off', async () => {
    const id = await post('member', {
      type: 'private',
      to: JSON.stringify([t.accounts.owner.id, t.accounts.admin.id]),
      content: 'hello both',
    });
    setUser(t, t.accounts.admin.id, { receives_typing_notifications: false });
    await watchers.clear();
    expect((await typing('member', id, 'start')).status).toBe(200);
    const events = await watchers.take('typing_edit_message');
    expect(receivers(events)).toEqual(['member', 'owner']);
    expect(events.member![0].recipient).toEqual({
      type: 'direct',
      user_ids: [t.accounts.owner.id, t.accounts.member.id],
    });
    setUser(t, t.accounts.admin.id, { receives_typing_notifications: true });
  });

  it('is refused to anyone but the sender, and for messages one cannot see', async () => {
    const id = await post('member', {
      type: 'stream',
      to: general,
      topic: 'plans',
      content: 'mine',
    });
    expectError(
      await typing('owner', id, 'start'),
      400,
      'BAD_REQUEST',
      "You don't have permission to edit this message",
    );
    const dm = await post('member', {
      type: 'private',
      to: JSON.stringify([t.accounts.owner.id]),
      content: 'psst',
    });
    expectError(await typing('admin', dm, 'start'), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await typing('member', 987654, 'start'), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expect(receivers(await watchers.take('typing_edit_message'))).toEqual([]);
  });

  it('follows the organization’s editing rules, with no grace period', async () => {
    const id = await post('member', { type: 'stream', to: general, topic: 'plans', content: 'x' });
    setRealm(t, { allow_message_editing: false });
    expectError(
      await typing('member', id, 'start'),
      400,
      'BAD_REQUEST',
      'Your organization has turned off message editing',
    );
    setRealm(t, { allow_message_editing: true, message_content_edit_limit_seconds: -1 });
    expectError(
      await typing('member', id, 'start'),
      400,
      'BAD_REQUEST',
      'The time limit for editing this message has passed',
    );
    setRealm(t, { message_content_edit_limit_seconds: null });
  });

  it('is refused when the sender turned off their own typing notifications', async () => {
    const id = await post('member', { type: 'stream', to: general, topic: 'plans', content: 'y' });
    setUser(t, t.accounts.member.id, { send_stream_typing_notifications: false });
    expectError(
      await typing('member', id, 'start'),
      400,
      'BAD_REQUEST',
      'User has disabled typing notifications for channel messages',
    );
    setUser(t, t.accounts.member.id, { send_stream_typing_notifications: true });
  });

  it('checks op', async () => {
    const id = await post('member', { type: 'stream', to: general, topic: 'plans', content: 'z' });
    expectError(await typing('member', id, 'maybe'), 400, 'BAD_REQUEST', 'Invalid op');
    expectError(
      await t.as('member').post(`/messages/${id}/typing`, {}, { skipSchema: true }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'op' argument",
      { var_name: 'op' },
    );
  });
});
