import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSubscription } from '../../server/db/queries/streams.js';
import { setUserActive, userById } from '../../server/db/queries/users.js';
import { sendMessage } from '../../server/messages/index.js';
import { Watcher } from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const messageIds = async (w: Watcher) => (await w.take('message')).map((e) => e.message.id);

// Channel recipients are cached between sends (messages/subscriber-cache.ts).
describe('who a channel message reaches, send after send', () => {
  it('follows subscriptions added, deactivations, and rolled-back subscriptions', async () => {
    const { ctx } = t.server;
    const late = await quickMember(t, 'Late Subscriber');
    const leaving = await quickMember(t, 'Leaving Member');
    const channel = createChannel(t, {
      name: 'recipient cache',
      subscribers: [t.accounts.member.id, leaving.id],
    });
    const lateQueue = await Watcher.register(t.as(late), { event_types: ['message'] });
    const leavingQueue = await Watcher.register(t.as(leaving), { event_types: ['message'] });

    const first = await sendToChannel(t, 'member', channel, 'cache');
    expect(await messageIds(lateQueue)).toEqual([]);
    expect(await messageIds(leavingQueue)).toEqual([first]);

    // A send inside a transaction that then rolls back must not leave the
    // subscription it saw behind in the cache.
    expect(() =>
      ctx.transaction(() => {
        insertSubscription(ctx.db, channel, late.id, '#76ce90');
        sendMessage(ctx, userById(ctx.db, t.accounts.member.id)!, {
          type: 'stream',
          to: String(channel),
          topic: 'cache',
          content: 'never stored',
          clientName: 'test',
        });
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    const second = await sendToChannel(t, 'member', channel, 'cache');
    expect(await messageIds(lateQueue)).toEqual([]);

    expect(await messageIds(leavingQueue)).toEqual([second]);

    ctx.transaction(() => insertSubscription(ctx.db, channel, late.id, '#76ce90'));
    ctx.transaction(() => setUserActive(ctx.db, leaving.id, false));
    const reached: number[][] = [];
    const stop = ctx.events.observe((e) => {
      if (e.newMessage) reached.push([...e.newMessage.recipients]);
    });
    const third = await sendToChannel(t, 'member', channel, 'cache');
    stop();
    expect(await messageIds(lateQueue)).toEqual([third]);
    expect(reached).toEqual([[t.accounts.member.id, late.id].sort((a, b) => a - b)]);
  });
});

// Payloads are shared by queues with the same options (memoisePayload).
describe('events shared between queues alike', () => {
  it('delete_message: each queue gets the shape of its own capabilities', async () => {
    const channel = createChannel(t, {
      name: 'shared deletes',
      subscribers: [t.accounts.member.id, t.accounts.admin.id],
    });
    const id = await sendToChannel(t, 'member', channel, '', 'gone soon');
    const queues = await Promise.all(
      [
        { bulk_message_deletion: true, empty_topic_name: true },
        { bulk_message_deletion: false, empty_topic_name: false },
        { bulk_message_deletion: true, empty_topic_name: false },
        { bulk_message_deletion: true, empty_topic_name: true },
      ].map((capabilities) =>
        Watcher.register(t.as('member'), {
          event_types: ['delete_message'],
          client_capabilities: capabilities,
        }),
      ),
    );
    const res = await t.as('admin').delete(`/messages/${id}`);
    expect(res.status).toBe(200);
    const [bulkEmpty, single, bulkNamed, bulkEmptyAgain] = await Promise.all(
      queues.map((q) => q.take('delete_message')),
    );
    const conversation = { message_type: 'stream', stream_id: channel };
    const strip = (events: Array<Record<string, unknown>>) =>
      events.map(({ id: _id, ...rest }) => rest);
    expect(strip(bulkEmpty!)).toEqual([
      { type: 'delete_message', message_ids: [id], ...conversation, topic: '' },
    ]);
    expect(strip(bulkEmptyAgain!)).toEqual(strip(bulkEmpty!));
    expect(strip(single!)).toEqual([
      { type: 'delete_message', message_id: id, ...conversation, topic: 'general chat' },
    ]);
    expect(strip(bulkNamed!)).toEqual([
      { type: 'delete_message', message_ids: [id], ...conversation, topic: 'general chat' },
    ]);
  });

  it('update_message: flags stay per recipient', async () => {
    const channel = createChannel(t, {
      name: 'shared edits',
      subscribers: [t.accounts.member.id, t.accounts.admin.id, t.accounts.owner.id],
    });
    const id = await sendToChannel(t, 'member', channel, 'edits', 'first draft');
    const admin = await Watcher.register(t.as('admin'), { event_types: ['update_message'] });
    const owner = await Watcher.register(t.as('owner'), { event_types: ['update_message'] });
    const adminName = userById(t.server.ctx.db, t.accounts.admin.id)!.full_name;
    const res = await t
      .as('member')
      .patch(`/messages/${id}`, { content: `now for @**${adminName}** only` });
    expect(res.status).toBe(200);
    const [adminEvent] = await admin.take('update_message');
    const [ownerEvent] = await owner.take('update_message');
    expect(adminEvent.flags).toEqual(['mentioned']);
    expect(ownerEvent.flags).toEqual([]);
    expect({ ...adminEvent, id: 0, flags: [] }).toEqual({ ...ownerEvent, id: 0 });
  });
});
