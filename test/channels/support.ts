/**
 * Shared by the channel and subscription tests: subscribing as a client
 * would, channel ids by name, and event queues for the channel event types.
 */
import { expect } from 'vitest';
import { Watchers } from '../helpers/event-queues.js';
import { quickMember } from '../helpers/fixtures.js';
import type { Account, FixtureName, TestServer } from '../helpers/server.js';

/** The event types the channel and subscription tests watch. */
export const CHANNEL_EVENT_TYPES = [
  'stream',
  'subscription',
  'default_streams',
  'update_message_flags',
  'realm',
];

/** Queues registered for the channel event types only (see Watchers.add). */
export const channelWatchers = (t: TestServer): Watchers =>
  new Watchers(t, { event_types: CHANNEL_EVENT_TYPES });

/**
 * A second member, Otto Other, and a channel-event queue for each human
 * fixture user and for Otto, named by fixture name and 'other'.
 */
export async function watchEveryone(
  t: TestServer,
): Promise<{ other: Account; watchers: Watchers }> {
  const other = await quickMember(t, 'Otto Other');
  const watchers = channelWatchers(t);
  for (const name of ['owner', 'admin', 'moderator', 'member', 'guest'] as const) {
    await watchers.add(name);
  }
  await watchers.add('other', other);
  return { other, watchers };
}

/** Subscribes the users to channels (creating them) the way a client would. */
export async function subscribeAs(
  t: TestServer,
  who: FixtureName | Account,
  names: string[],
  params: Record<string, unknown> = {},
) {
  const res = await t.as(who).post('/users/me/subscriptions', {
    subscriptions: names.map((name) => ({ name })),
    ...params,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A channel's id by name, read straight from the database. */
export function channelId(t: TestServer, name: string): number {
  const row = t.server.ctx.db
    .prepare('SELECT id FROM streams WHERE name_key = ?')
    .get(name.toLowerCase()) as { id: number } | undefined;
  if (!row) throw new Error(`no channel ${name}`);
  return row.id;
}
