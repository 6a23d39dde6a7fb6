/**
 * Helpers shared by the flag, unread and topic-preference tests: sending
 * through POST /messages and reading the message state of POST /register.
 */
import { expect } from 'vitest';
import type { Account, ApiClient, FixtureName, TestServer } from '../helpers/server.js';

type Who = FixtureName | Account;

export async function sendToChannel(
  t: TestServer,
  who: Who,
  channel: number | string,
  topic: string,
  content = 'hello',
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await t
    .as(who)
    .post('/messages', { type: 'stream', to: channel, topic, content, ...extra });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: 'success' });
  return res.body.id;
}

export async function sendDirect(
  t: TestServer,
  who: Who,
  to: number[],
  content = 'psst',
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await t.as(who).post('/messages', { type: 'direct', to, content, ...extra });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: 'success' });
  return res.body.id;
}

/** Every unread id in an unread_msgs structure, ascending. */
export function allUnreadIds(unread: {
  pms: Array<{ unread_message_ids: number[] }>;
  streams: Array<{ unread_message_ids: number[] }>;
  huddles: Array<{ unread_message_ids: number[] }>;
}): number[] {
  return [...unread.pms, ...unread.streams, ...unread.huddles]
    .flatMap((c) => c.unread_message_ids)
    .sort((a, b) => a - b);
}

/** POST /register asking only for the message state this area provides. */
export async function messageState(client: ApiClient, extra: Record<string, unknown> = {}) {
  const res = await client.post('/register', {
    fetch_event_types: [
      'message',
      'update_message_flags',
      'starred_messages',
      'recent_private_conversations',
      'user_topic',
      'muted_topics',
    ],
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
