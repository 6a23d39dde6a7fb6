import { afterAll, beforeAll, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let general: number;

beforeAll(async () => {
  // Every second, with the real clock: the job itself must find and send the message.
  t = await startTestServer({ scheduledDelivery: 1000 });
  general = createChannel(t, { name: 'general', subscribers: [t.accounts.member.id] });
});
afterAll(() => t.close());

it('the periodic job started by createServer delivers a due scheduled message', async () => {
  const member = t.as('member');
  const res = await member.post('/scheduled_messages', {
    type: 'stream',
    to: general,
    topic: 'cron',
    content: 'on time',
    // At least one whole second ahead, whatever the milliseconds are now.
    scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 2,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  const deadline = Date.now() + 4000;
  let remaining: unknown[] = [1];
  while (remaining.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    remaining = (await member.get('/scheduled_messages')).body.scheduled_messages;
  }
  expect(remaining).toEqual([]);
  const sent = await member.get('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
    narrow: [{ operator: 'channel', operand: general }],
  });
  expect(sent.body.messages.map((m: { content: string }) => m.content)).toEqual(['<p>on time</p>']);
});

it('the same job delivers a due reminder from Notification Bot', async () => {
  const member = t.as('member');
  const sent = await member.post('/messages', {
    type: 'stream',
    to: general,
    topic: 'cron',
    content: 'remind me',
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const res = await member.post('/reminders', {
    message_id: sent.body.id,
    scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 2,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  const deadline = Date.now() + 4000;
  let remaining: unknown[] = [1];
  while (remaining.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    remaining = (await member.get('/reminders')).body.reminders;
  }
  expect(remaining).toEqual([]);
  const [latest] = (
    await member.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 })
  ).body.messages;
  expect(latest).toMatchObject({ type: 'private', sender_full_name: 'Notification Bot' });
  expect(latest.content).toContain('You requested a reminder for the following message.');
});
