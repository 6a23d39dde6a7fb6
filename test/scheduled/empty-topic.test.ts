import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The empty topic of a scheduled message reaches clients as every other
 * empty topic does: "" with the empty_topic_name capability, else the
 * organization's display name ("general chat").
 */
let t: TestServer;
let general: number;

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false });
  general = createChannel(t, { name: 'general', subscribers: [t.accounts.member.id] });
});
afterAll(() => t?.close());

const register = (capable: boolean) =>
  t.as('member').post('/register', {
    event_types: ['scheduled_messages'],
    client_capabilities: { empty_topic_name: capable },
  });

const schedule = (topic: string) =>
  t.as('member').post('/scheduled_messages', {
    type: 'stream',
    to: general,
    topic,
    content: 'later',
    scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600,
  });

async function eventsOf(queueId: string) {
  const res = await t.as('member').get('/events', {
    queue_id: queueId,
    last_event_id: -1,
    dont_block: true,
  });
  return res.body.events.filter((e: { type: string }) => e.type === 'scheduled_messages');
}

describe('scheduled messages to the empty topic', () => {
  it('show the display name to clients without empty_topic_name, "" to the others', async () => {
    const legacy = await register(false);
    const modern = await register(true);
    const created = await schedule('');
    expect(created.body.result).toBe('success');
    const id = created.body.scheduled_message_id;
    const edited = await t
      .as('member')
      .patch(`/scheduled_messages/${id}`, { content: 'later, edited' });
    expect(edited.body.result).toBe('success');

    const [legacyAdd, legacyUpdate] = await eventsOf(legacy.body.queue_id);
    const [modernAdd, modernUpdate] = await eventsOf(modern.body.queue_id);
    expect(legacyAdd.scheduled_messages[0].topic).toBe('general chat');
    expect(legacyUpdate.scheduled_message.topic).toBe('general chat');
    expect(modernAdd.scheduled_messages[0].topic).toBe('');
    expect(modernUpdate.scheduled_message.topic).toBe('');

    const legacyState = await register(false);
    const modernState = await register(true);
    expect(legacyState.body.scheduled_messages[0].topic).toBe('general chat');
    expect(modernState.body.scheduled_messages[0].topic).toBe('');

    const list = await t.as('member').get('/scheduled_messages');
    expect(list.body.scheduled_messages[0].topic).toBe('general chat');
  });
});
