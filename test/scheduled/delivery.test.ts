import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverDueScheduledMessages } from '../../server/scheduled/scheduled-messages.js';
import { only, receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../messages/send-support.js';

let t: TestServer;
const clock = new FakeClock();
const nowSeconds = () => Math.floor(clock.ms / 1000);
let general: number;
let watchers: Watchers;

beforeAll(async () => {
  // The cron job is off: each test moves the clock and runs the delivery itself.
  t = await startTestServer({ now: clock.now, scheduledDelivery: false });
  watchers = new Watchers(t);
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.member.id, a.guest.id],
  });
  for (const who of ['owner', 'admin', 'moderator', 'member', 'guest'] as const) {
    await watchers.add(who, who, {
      event_types: ['message', 'scheduled_messages'],
      apply_markdown: true,
    });
  }
});
afterAll(() => t.close());

beforeEach(async () => {
  await watchers.clear();
});

const member = () => t.as('member');
const deliver = () => deliverDueScheduledMessages(t.server.ctx);

async function scheduleOk(client: ApiClient, params: Record<string, unknown>): Promise<number> {
  const res = await client.post('/scheduled_messages', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.scheduled_message_id as number;
}

async function listOf(client: ApiClient) {
  const res = await client.get('/scheduled_messages');
  expect(res.status).toBe(200);
  return res.body.scheduled_messages as Array<Record<string, unknown>>;
}

describe('deliverDueScheduledMessages', () => {
  it('sends a due channel message re-rendered, tells the recipients and removes it', async () => {
    const id = await scheduleOk(member(), {
      type: 'stream',
      to: general,
      topic: 'later',
      content: 'hello @**Late Comer**',
      scheduled_delivery_timestamp: nowSeconds() + 60,
    });
    const notYet = await scheduleOk(member(), {
      type: 'stream',
      to: general,
      topic: 'later',
      content: 'not yet',
      scheduled_delivery_timestamp: nowSeconds() + 600,
    });
    // Saved while nobody had that name: no mention.
    expect((await listOf(member()))[0]!.rendered_content).not.toContain('user-mention');
    const late = await t.createMember('Late Comer');
    await watchers.clear();

    expect(deliver()).toEqual({ delivered: 0, failed: 0 });
    clock.advance(60);
    expect(deliver()).toEqual({ delivered: 1, failed: 0 });

    const events = await watchers.take();
    const messages = only(events, 'message');
    expect(receivers(messages)).toEqual(['guest', 'member', 'owner']);
    const event = messages.member![0];
    expect(event.message).toMatchObject({
      sender_id: t.accounts.member.id,
      stream_id: general,
      subject: 'later',
      content: `<p>hello <span class="user-mention" data-user-id="${late.id}">@Late Comer</span></p>`,
      timestamp: nowSeconds(),
    });

    const fetched = await member().get(`/messages/${event.message.id}`);
    expect(fetched.body.message).toMatchObject({
      id: event.message.id,
      content: event.message.content,
    });

    const removed = only(events, 'scheduled_messages');
    expect(receivers(removed)).toEqual(['member']);
    expect(removed.member).toEqual([
      {
        id: expect.any(Number),
        type: 'scheduled_messages',
        op: 'remove',
        scheduled_message_id: id,
      },
    ]);
    expect((await listOf(member())).map((m) => m.scheduled_message_id)).toEqual([notYet]);

    // Delivered once only.
    expect(deliver()).toEqual({ delivered: 0, failed: 0 });
    await member().delete(`/scheduled_messages/${notYet}`);
  });

  it('sends a due direct message to exactly its participants', async () => {
    const id = await scheduleOk(member(), {
      type: 'direct',
      to: [t.accounts.owner.id],
      content: 'psst',
      scheduled_delivery_timestamp: nowSeconds() + 5,
    });
    await watchers.clear();
    clock.advance(5);
    expect(deliver()).toEqual({ delivered: 1, failed: 0 });
    const events = await watchers.take();
    const messages = only(events, 'message');
    expect(receivers(messages)).toEqual(['member', 'owner']);
    expect(messages.owner![0].message).toMatchObject({ type: 'private', content: '<p>psst</p>' });
    expect(messages.owner![0].flags).not.toContain('read');
    const removed = only(events, 'scheduled_messages');
    expect(receivers(removed)).toEqual(['member']);
    expect(removed.member).toEqual([
      expect.objectContaining({ op: 'remove', scheduled_message_id: id }),
    ]);
  });
});

describe('failed delivery', () => {
  beforeEach(async () => {
    for (const m of await listOf(member())) {
      await member().delete(`/scheduled_messages/${m.scheduled_message_id}`);
    }
    await watchers.clear();
  });

  it('marks a message to an archived channel failed, tells the owner, and does not retry', async () => {
    const doomed = createChannel(t, { name: 'doomed', subscribers: [t.accounts.member.id] });
    const id = await scheduleOk(member(), {
      type: 'stream',
      to: doomed,
      topic: 't',
      content: 'into the void',
      scheduled_delivery_timestamp: nowSeconds() + 10,
    });
    const archived = await t.as('admin').delete(`/streams/${doomed}`);
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    await watchers.clear();

    clock.advance(10);
    expect(deliver()).toEqual({ delivered: 0, failed: 1 });
    const events = await watchers.take();
    expect(receivers(events)).toEqual(['member']);
    expect(only(events, 'scheduled_messages').member).toEqual([
      {
        id: expect.any(Number),
        type: 'scheduled_messages',
        op: 'update',
        scheduled_message: expect.objectContaining({
          scheduled_message_id: id,
          to: doomed,
          content: 'into the void',
          failed: true,
        }),
      },
    ]);
    // Notification Bot tells the owner why (Zulip's failed-delivery notice).
    const [notice] = only(events, 'message').member!;
    expect(notice.message).toMatchObject({
      type: 'private',
      sender_full_name: 'Notification Bot',
      display_recipient: expect.arrayContaining([
        expect.objectContaining({ id: t.accounts.member.id }),
      ]),
    });
    expect(notice.message.content).toContain('was not sent because of the following error:');
    expect(notice.message.content).toContain('<blockquote>');
    expect(notice.message.content).toContain('#scheduled');
    expect(await listOf(member())).toEqual([
      expect.objectContaining({ scheduled_message_id: id, failed: true }),
    ]);
    const register = await member().post('/register', {
      fetch_event_types: ['scheduled_messages'],
    });
    expect(register.body.scheduled_messages).toEqual([
      expect.objectContaining({ scheduled_message_id: id, failed: true }),
    ]);

    clock.advance(60);
    expect(deliver()).toEqual({ delivered: 0, failed: 0 });
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('fails a direct message whose recipient was deactivated; a new time retries it', async () => {
    const leaving = await t.createMember('Leaving Soon');
    const id = await scheduleOk(member(), {
      type: 'direct',
      to: [leaving.id],
      content: 'bye',
      scheduled_delivery_timestamp: nowSeconds() + 10,
    });
    const deactivated = await t.as('admin').delete(`/users/${leaving.id}`);
    expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
    await watchers.clear();
    clock.advance(10);
    expect(deliver()).toEqual({ delivered: 0, failed: 1 });
    expect((await listOf(member()))[0]).toMatchObject({ scheduled_message_id: id, failed: true });
    await watchers.clear();

    // A failed message is only tried again at a new time.
    const noTime = await member().patch(`/scheduled_messages/${id}`, { content: 'bye!' });
    expect(noTime.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Scheduled delivery time must be in the future.',
    });
    const retarget = await member().patch(`/scheduled_messages/${id}`, {
      to: [t.accounts.owner.id],
      scheduled_delivery_timestamp: nowSeconds() + 30,
    });
    expect(retarget.status, JSON.stringify(retarget.body)).toBe(200);
    const updated = await watchers.take('scheduled_messages');
    expect(updated.member).toEqual([
      expect.objectContaining({
        op: 'update',
        scheduled_message: expect.objectContaining({ failed: false, to: [t.accounts.owner.id] }),
      }),
    ]);
    clock.advance(30);
    expect(deliver()).toEqual({ delivered: 1, failed: 0 });
    const messages = await watchers.take('message');
    expect(receivers(messages)).toEqual(['member', 'owner']);
    expect(messages.owner![0].message.content).toBe('<p>bye</p>');
  });

  it('fails the message of a deactivated sender without a notice', async () => {
    const leaver = await t.createMember('Short Stay');
    createChannel(t, { name: 'stay', subscribers: [leaver.id, t.accounts.owner.id] });
    await t.as(leaver).post('/scheduled_messages', {
      type: 'direct',
      to: [t.accounts.owner.id],
      content: 'from beyond',
      scheduled_delivery_timestamp: nowSeconds() + 10,
    });
    const deactivated = await t.as('admin').delete(`/users/${leaver.id}`);
    expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
    await watchers.clear();
    clock.advance(10);
    expect(deliver()).toEqual({ delivered: 0, failed: 1 });
    expect(receivers(await watchers.take())).toEqual([]);
    const row = t.server.ctx.db
      .prepare('SELECT failed, failure_message FROM scheduled_messages WHERE sender_id = ?')
      .get(leaver.id);
    expect(row).toEqual({ failed: 1, failure_message: 'Account is deactivated' });
  });
});
