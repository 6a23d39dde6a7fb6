/**
 * Sending messages through POST /messages, for tests that need messages to
 * exist: each call checks the send succeeded and returns the new id.
 */
import { expect } from 'vitest';
import type { Account, ApiClient, FixtureName, TestServer } from './server.js';

type Who = FixtureName | Account;

/** Sends with exactly the given parameters. */
export async function sendOk(client: ApiClient, params: Record<string, unknown>): Promise<number> {
  const res = await client.post('/messages', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.result).toBe('success');
  return res.body.id as number;
}

/** The parameters of a channel message; a numeric channel id goes as a JSON number. */
export const streamMessage = (to: string | number, topic: string, content: string) => ({
  type: 'stream',
  to: typeof to === 'number' ? JSON.stringify(to) : to,
  topic,
  content,
});

export const sendToChannel = (
  t: TestServer,
  who: Who,
  channel: number | string,
  topic: string,
  content = 'hello',
  extra: Record<string, unknown> = {},
): Promise<number> => sendOk(t.as(who), { ...streamMessage(channel, topic, content), ...extra });

export const sendDirect = (
  t: TestServer,
  who: Who,
  to: number[],
  content = 'psst',
  extra: Record<string, unknown> = {},
): Promise<number> => sendOk(t.as(who), { type: 'direct', to, content, ...extra });
