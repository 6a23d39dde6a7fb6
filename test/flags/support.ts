/**
 * Helpers shared by the flag, unread and topic-preference tests: the
 * message state of POST /register and the unread ids in it.
 */
import { expect } from 'vitest';
import type { ApiClient } from '../helpers/server.js';

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
