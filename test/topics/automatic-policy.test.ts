import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTopicPolicy } from '../../server/db/queries/user-topics.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';

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

/**
 * Which actions count, pinned per caller and per setting value (Zulip's
 * AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_*: 1 on participation, 2 on send,
 * 3 on initiation, 4 never): sending a message that starts a topic is an
 * initiation, a send and a participation; a reply is a send and a
 * participation; a reaction or a poll vote is a participation only; moving
 * one's message so that it starts a topic is an initiation only; editing
 * content is none of them.
 */
describe('each way of taking part, for each value of the two settings', () => {
  let actor: Account;
  let plaza: number;
  let quiet: number;
  let serial = 0;

  beforeAll(async () => {
    actor = await quickMember(t, 'Participant');
    const members = [actor.id, t.accounts.admin.id];
    plaza = createChannel(t, { name: 'plaza', subscribers: members });
    quiet = createChannel(t, { name: 'hushed', subscribers: members });
    const res = await t.as(actor).post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: quiet, property: 'is_muted', value: true }],
    });
    expect(res.body.result).toBe('success');
  });

  const settings = async (follow: number, unmute: number) => {
    const res = await t.as(actor).patch('/settings', {
      automatically_follow_topics_policy: follow,
      automatically_unmute_topics_in_muted_streams_policy: unmute,
    });
    expect(res.body.result, JSON.stringify(res.body)).toBe('success');
  };

  /** Someone else starts the topic; the actor, with both settings at never, replies. */
  const actorReplyIn = async (channel: number, topic: string) => {
    await sendToChannel(t, 'admin', channel, topic, 'first');
    return sendToChannel(t, actor, channel, topic, 'mine');
  };

  type Way = (channel: number, topic: string, apply: () => Promise<void>) => Promise<string>;
  /** Each way sets the actor's settings (apply) just before the action, and names the topic to read. */
  const ways: Record<string, Way> = {
    'starting a topic': async (channel, topic, apply) => {
      await apply();
      await sendToChannel(t, actor, channel, topic, 'first');
      return topic;
    },
    'replying in a topic': async (channel, topic, apply) => {
      await sendToChannel(t, 'admin', channel, topic, 'first');
      await apply();
      await sendToChannel(t, actor, channel, topic, 'reply');
      return topic;
    },
    reacting: async (channel, topic, apply) => {
      const id = await sendToChannel(t, 'admin', channel, topic, 'first');
      await apply();
      const res = await t.as(actor).post(`/messages/${id}/reactions`, { emoji_name: 'wave' });
      expect(res.body.result).toBe('success');
      return topic;
    },
    'voting in a poll': async (channel, topic, apply) => {
      const id = await sendToChannel(t, 'admin', channel, topic, '/poll Lunch?\nSoup');
      await apply();
      const res = await t.as(actor).post('/submessage', {
        message_id: id,
        msg_type: 'widget',
        content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }),
      });
      expect(res.body.result, JSON.stringify(res.body)).toBe('success');
      return topic;
    },
    'editing content': async (channel, topic, apply) => {
      const id = await actorReplyIn(channel, topic);
      await apply();
      const res = await t.as(actor).patch(`/messages/${id}`, { content: 'edited' });
      expect(res.body.result, JSON.stringify(res.body)).toBe('success');
      return topic;
    },
    'moving a message so that it starts a topic': async (channel, topic, apply) => {
      const id = await actorReplyIn(channel, topic);
      await apply();
      const res = await t.as(actor).patch(`/messages/${id}`, {
        topic: `${topic} moved`,
        propagate_mode: 'change_one',
        send_notification_to_old_thread: false,
        send_notification_to_new_thread: false,
      });
      expect(res.body.result, JSON.stringify(res.body)).toBe('success');
      return `${topic} moved`;
    },
  };

  /** The setting values under which each way changes the policy. */
  const counts: Record<keyof typeof ways, number[]> = {
    'starting a topic': [1, 2, 3],
    'replying in a topic': [1, 2],
    reacting: [1],
    'voting in a poll': [1],
    'editing content': [],
    'moving a message so that it starts a topic': [3],
  };

  const policyAfter = async (way: Way, channel: number, follow: number, unmute: number) => {
    serial++;
    await settings(4, 4);
    const topic = await way(channel, `way ${serial}`, () => settings(follow, unmute));
    return userTopicPolicy(t.server.ctx.db, actor.id, channel, topic);
  };

  for (const [name, way] of Object.entries(ways)) {
    it(`${name}: automatically_follow_topics_policy`, async () => {
      const seen: Record<number, number> = {};
      for (const value of [1, 2, 3, 4]) seen[value] = await policyAfter(way, plaza, value, 4);
      const wanted = Object.fromEntries(
        [1, 2, 3, 4].map((v) => [v, counts[name]!.includes(v) ? 3 : 0]),
      );
      expect(seen).toEqual(wanted);
    });

    it(`${name}: automatically_unmute_topics_in_muted_streams_policy`, async () => {
      const seen: Record<number, number> = {};
      for (const value of [1, 2, 3, 4]) seen[value] = await policyAfter(way, quiet, 4, value);
      const wanted = Object.fromEntries(
        [1, 2, 3, 4].map((v) => [v, counts[name]!.includes(v) ? 2 : 0]),
      );
      expect(seen).toEqual(wanted);
      // Unmuting is for muted channels only: the same in an unmuted one changes nothing.
      expect(await policyAfter(way, plaza, 4, counts[name]![0] ?? 1)).toBe(0);
    });
  }
});
