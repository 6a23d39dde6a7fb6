import { describe, expect, it } from 'vitest';
import {
  scheduledTarget,
  scheduleParams,
  soonestFirst,
} from '../../../renderer/src/chat/compose/scheduled.js';
import type { ScheduledMessage } from '../../../renderer/src/chat/data/model.js';

const message = (extra: Partial<ScheduledMessage>): ScheduledMessage => ({
  scheduled_message_id: 1,
  type: 'stream',
  to: 4,
  topic: 'plans',
  content: 'x',
  rendered_content: '<p>x</p>',
  scheduled_delivery_timestamp: 100,
  failed: false,
  ...extra,
});

describe('scheduled messages in the chat', () => {
  it("builds POST /scheduled_messages's parameters for channels and DMs", () => {
    expect(scheduleParams({ kind: 'channel', channelId: 4, topic: '' }, 'hi', 99)).toEqual({
      type: 'stream',
      to: 4,
      topic: '',
      content: 'hi',
      scheduled_delivery_timestamp: 99,
    });
    expect(scheduleParams({ kind: 'direct', userIds: [9, 3] }, 'yo', 99)).toEqual({
      type: 'direct',
      to: [3, 9],
      content: 'yo',
      scheduled_delivery_timestamp: 99,
    });
  });

  it('reads the conversation back, leaving the sender out of a DM', () => {
    expect(scheduledTarget(message({}), 1)).toEqual({
      kind: 'channel',
      channelId: 4,
      topic: 'plans',
    });
    expect(scheduledTarget(message({ type: 'private', to: [1, 5, 7] }), 1)).toEqual({
      kind: 'direct',
      userIds: [5, 7],
    });
    // A note to self keeps the sender.
    expect(scheduledTarget(message({ type: 'private', to: [1] }), 1)).toEqual({
      kind: 'direct',
      userIds: [1],
    });
  });

  it('lists the soonest first', () => {
    const list = soonestFirst([
      message({ scheduled_message_id: 1, scheduled_delivery_timestamp: 300 }),
      message({ scheduled_message_id: 2, scheduled_delivery_timestamp: 100 }),
    ]);
    expect(list.map((m) => m.scheduled_message_id)).toEqual([2, 1]);
  });
});
