import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userById } from '../../server/db/queries/users.js';
import { deleteMessage, sendMessage, updateMessage } from '../../server/messages/index.js';
import { Watcher } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

// The event is made from the row the send stored, as Zulip's carries the
// message as sent: what happens to it before delivery follows as its own event.
describe('the message event of a message changed before its delivery', () => {
  const sendThen = (change: (messageId: number) => void) => {
    const { ctx } = t.server;
    const admin = userById(ctx.db, t.accounts.admin.id)!;
    const channel = createChannel(t, {
      name: `changed before delivery ${Math.random()}`,
      subscribers: [t.accounts.admin.id, t.accounts.member.id],
    });
    // One transaction: its events are delivered together, after the commit.
    ctx.transaction(() => {
      const { id } = sendMessage(ctx, admin, {
        type: 'stream',
        to: String(channel),
        topic: 'delivery',
        content: 'as sent',
        clientName: 'test',
      });
      change(id);
    });
  };

  it('carries the message as sent, then its deletion', async () => {
    const watcher = await Watcher.register(t.as('member'), {
      event_types: ['message', 'delete_message'],
      apply_markdown: true,
    });
    const { ctx } = t.server;
    sendThen((id) => deleteMessage(ctx, userById(ctx.db, t.accounts.admin.id)!, id));
    const events = await watcher.take();
    expect(events.map((e) => e.type)).toEqual(['message', 'delete_message']);
    expect(events[0]!.message.content).toBe('<p>as sent</p>');
    expect(events[1]!.message_id).toBe(events[0]!.message.id);
  });

  it('carries the content as sent, then the edit', async () => {
    const watcher = await Watcher.register(t.as('member'), {
      event_types: ['message', 'update_message'],
      apply_markdown: true,
    });
    const { ctx } = t.server;
    sendThen((id) =>
      updateMessage(ctx, userById(ctx.db, t.accounts.admin.id)!, {
        messageId: id,
        content: 'edited',
        propagateMode: 'change_one',
        sendNotificationToOldThread: false,
        sendNotificationToNewThread: false,
      }),
    );
    const events = await watcher.take();
    expect(events.map((e) => e.type)).toEqual(['message', 'update_message']);
    expect(events[0]!.message.content).toBe('<p>as sent</p>');
    expect(events[1]!.rendered_content).toBe('<p>edited</p>');
  });
});
