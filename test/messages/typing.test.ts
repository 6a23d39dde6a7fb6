import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { setUser } from './send-support.js';

let t: TestServer;
let general: number;
let secret: number;
let watchers: Watchers;

const streamCapable = { client_capabilities: { stream_typing_notifications: true } };

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.member.id, a.guest.id],
  });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  for (const who of ['owner', 'admin', 'member', 'guest'] as const) {
    await watchers.add(who, who, streamCapable);
  }
  // Same user, a client that does not handle channel typing.
  await watchers.add('owner:plain', 'owner', {
    client_capabilities: { empty_topic_name: true },
  });
  await watchers.add('owner:empty-topic', 'owner', {
    client_capabilities: { stream_typing_notifications: true, empty_topic_name: true },
  });
});
afterAll(() => t.close());

beforeEach(async () => {
  await watchers.clear();
});

type Who = 'owner' | 'admin' | 'member' | 'guest';
const typing = (who: Who, params: Record<string, unknown>, options = {}) =>
  t.as(who).post('/typing', params, options);

describe('direct-message typing', () => {
  it('goes to every participant, the sender included (type defaults to direct)', async () => {
    const res = await typing('member', { to: [t.accounts.owner.id], op: 'start' });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const events = await watchers.take('typing');
    expect(receivers(events)).toEqual(['member', 'owner', 'owner:empty-topic', 'owner:plain']);
    const { owner, member } = t.accounts;
    expect(events.owner![0]).toEqual({
      id: expect.any(Number),
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: member.id, email: member.email },
      recipients: [
        { user_id: owner.id, email: owner.email },
        { user_id: member.id, email: member.email },
      ].sort((a, b) => a.user_id - b.user_id),
    });
  });

  it('sends stop too, and takes a bare id as zulip-js sends a one-element list', async () => {
    await typing(
      'member',
      { to: String(t.accounts.guest.id), op: 'stop' },
      { encoding: 'multipart' },
    );
    const events = await watchers.take('typing');
    expect(receivers(events)).toEqual(['guest', 'member']);
    expect(events.guest![0].op).toBe('stop');
  });

  it('skips people who turned typing notifications off', async () => {
    setUser(t, t.accounts.owner.id, { receives_typing_notifications: false });
    try {
      await typing('member', { to: [t.accounts.owner.id], op: 'start' });
      expect(receivers(await watchers.take('typing'))).toEqual(['member']);
    } finally {
      setUser(t, t.accounts.owner.id, { receives_typing_notifications: true });
    }
  });

  it('refuses bad requests', async () => {
    const expectError = async (params: Record<string, unknown>, msg: string) => {
      const res = await typing('member', params, { skipSchema: true });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(msg);
    };
    await expectError({ op: 'start' }, "Missing 'to' argument");
    await expectError({ to: [], op: 'start' }, "Empty 'to' list");
    await expectError({ to: [99999], op: 'start' }, 'Invalid user ID 99999');
    await expectError({ to: [t.accounts.owner.id], op: 'typing' }, 'Invalid op');
    await expectError({ to: [t.accounts.owner.id], op: 'start', type: 'shout' }, 'Invalid type');
    // Zulip's typing types are direct, stream and channel only.
    await expectError({ to: [t.accounts.owner.id], op: 'start', type: 'private' }, 'Invalid type');
    // Zulip words a missing `to` like a missing parameter, but as a plain BAD_REQUEST.
    const missing = await typing('member', { op: 'start' }, { skipSchema: true });
    expect(missing.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "Missing 'to' argument",
    });
    setUser(t, t.accounts.member.id, { send_private_typing_notifications: false });
    try {
      await expectError(
        { to: [t.accounts.owner.id], op: 'start' },
        'User has disabled typing notifications for direct messages',
      );
    } finally {
      setUser(t, t.accounts.member.id, { send_private_typing_notifications: true });
    }
  });
});

describe('channel typing', () => {
  it('goes to subscribers whose clients handle it', async () => {
    for (const type of ['stream', 'channel']) {
      await typing('member', { type, stream_id: general, topic: 'plans', op: 'start' });
      const events = await watchers.take('typing');
      // Not the admin (not subscribed), not the queue without the capability.
      expect(receivers(events)).toEqual(['guest', 'member', 'owner', 'owner:empty-topic']);
      expect(events.owner![0]).toEqual({
        id: expect.any(Number),
        type: 'typing',
        op: 'start',
        message_type: 'stream',
        sender: { user_id: t.accounts.member.id, email: t.accounts.member.email },
        stream_id: general,
        topic: 'plans',
      });
    }
  });

  it('names the empty topic for clients that do not know it', async () => {
    await typing('member', {
      type: 'stream',
      stream_id: general,
      topic: '(no topic)',
      op: 'start',
    });
    const events = await watchers.take('typing');
    expect(events.owner![0].topic).toBe('general chat');
    expect(events['owner:empty-topic']![0].topic).toBe('');
  });

  it('refuses bad requests', async () => {
    const expectError = async (who: Who, params: Record<string, unknown>, msg: string) => {
      const res = await typing(
        who,
        { type: 'stream', op: 'start', ...params },
        { skipSchema: true },
      );
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(msg);
    };
    await expectError('member', { topic: 'x' }, "Missing 'stream_id' argument");
    const missing = await typing(
      'member',
      { type: 'stream', op: 'start', topic: 'x' },
      { skipSchema: true },
    );
    expect(missing.body).not.toHaveProperty('var_name');
    expect(missing.body.code).toBe('BAD_REQUEST');
    await expectError('member', { stream_id: -1, topic: 'x' }, 'Invalid channel ID');
    await expectError(
      'member',
      { stream_id: general, topic: 'a', subject: 'b' },
      "Can't decide between 'topic' and 'subject' arguments",
    );
    await expectError('member', { stream_id: general }, 'Missing topic');
    await expectError('member', { stream_id: secret, topic: 'x' }, 'Invalid channel ID');
    await expectError('member', { stream_id: 99999, topic: 'x' }, 'Invalid channel ID');
    setUser(t, t.accounts.member.id, { send_stream_typing_notifications: false });
    try {
      await expectError(
        'member',
        { stream_id: general, topic: 'x' },
        'User has disabled typing notifications for channel messages',
      );
    } finally {
      setUser(t, t.accounts.member.id, { send_stream_typing_notifications: true });
    }
  });
});
