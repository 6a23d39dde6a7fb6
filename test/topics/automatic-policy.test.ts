import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTopicPolicy } from '../../server/db/queries/user-topics.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let muted: number;

beforeAll(async () => {
  t = await startTestServer();
  muted = createChannel(t, {
    name: 'quiet room',
    subscribers: [t.accounts.member.id, t.accounts.admin.id],
  });
  const res = await t.as('member').post('/users/me/subscriptions/properties', {
    subscription_data: [{ stream_id: muted, property: 'is_muted', value: true }],
  });
  expect(res.body.result).toBe('success');
});

afterAll(() => t?.close());

async function userTopicEventsDuring(send: () => Promise<unknown>) {
  const reg = await t.as('member').post('/register', { event_types: ['user_topic'] });
  await send();
  const res = await t.as('member').get('/events', {
    queue_id: reg.body.queue_id,
    last_event_id: -1,
    dont_block: true,
  });
  return res.body.events.filter((e: { type: string }) => e.type === 'user_topic');
}

const send = (topic: string) =>
  t.as('member').post('/messages', {
    type: 'stream',
    to: muted,
    topic,
    content: 'hello',
  });

describe('automatic topic policy in a muted channel (Zulip: follow wins over unmute)', () => {
  it('follows a topic the sender starts, with the default settings', async () => {
    let res: Awaited<ReturnType<typeof send>> | undefined;
    const events = await userTopicEventsDuring(async () => {
      res = await send('fresh start');
    });
    expect(res!.body.automatic_new_visibility_policy).toBe(3);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ topic_name: 'fresh start', visibility_policy: 3 });
    expect(userTopicPolicy(t.server.ctx.db, t.accounts.member.id, muted, 'fresh start')).toBe(3);
  });

  it('unmutes (on send) a topic someone else started', async () => {
    await t.as('admin').post('/messages', {
      type: 'stream',
      to: muted,
      topic: 'their topic',
      content: 'first',
    });
    let res: Awaited<ReturnType<typeof send>> | undefined;
    const events = await userTopicEventsDuring(async () => {
      res = await send('their topic');
    });
    expect(res!.body.automatic_new_visibility_policy).toBe(2);
    expect(events.map((e: { visibility_policy: number }) => e.visibility_policy)).toEqual([2]);
  });
});
