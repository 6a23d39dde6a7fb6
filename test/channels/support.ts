/**
 * Shared by the channel and subscription tests: event queues read without
 * blocking, so each test can check which users received which events.
 */
import { expect } from 'vitest';
import type { Account, ApiClient, FixtureName, TestServer } from '../helpers/server.js';

// biome-ignore lint/suspicious/noExplicitAny: events are arbitrary JSON
export type Event = any;

/** One registered queue; take() returns the events since the last take(). */
export class Watcher {
  private lastId = -1;
  constructor(
    readonly name: string,
    private readonly client: ApiClient,
    readonly queueId: string,
  ) {}

  async take(): Promise<Event[]> {
    const res = await this.client.get('/events', {
      queue_id: this.queueId,
      last_event_id: this.lastId,
      dont_block: true,
    });
    expect(res.status, `${this.name}: ${JSON.stringify(res.body)}`).toBe(200);
    const events: Event[] = res.body.events;
    if (events.length > 0) this.lastId = events[events.length - 1].id;
    return events;
  }
}

/**
 * A queue per named user, all registered for the given event types; take()
 * drains every queue and returns the events by user name.
 */
export class Watchers {
  private readonly watchers = new Map<string, Watcher>();

  constructor(private readonly t: TestServer) {}

  async add(
    name: string,
    who: FixtureName | Account = name as FixtureName,
    params: Record<string, unknown> = {},
  ): Promise<Watcher> {
    const client = this.t.as(who);
    const res = await client.post('/register', {
      event_types: ['stream', 'subscription', 'default_streams', 'update_message_flags', 'realm'],
      fetch_event_types: [],
      ...params,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const watcher = new Watcher(name, client, res.body.queue_id);
    this.watchers.set(name, watcher);
    return watcher;
  }

  async take(): Promise<Record<string, Event[]>> {
    const out: Record<string, Event[]> = {};
    for (const [name, watcher] of this.watchers) out[name] = await watcher.take();
    return out;
  }

  /** Drops whatever is pending, so the next take() sees only what follows. */
  async clear(): Promise<void> {
    await this.take();
  }
}

/** The names of the users whose events include one matching `predicate`. */
export function receivers(
  events: Record<string, Event[]>,
  predicate: (event: Event) => boolean,
): string[] {
  return Object.entries(events)
    .filter(([, list]) => list.some(predicate))
    .map(([name]) => name)
    .sort();
}

export const isEvent =
  (type: string, op: string, extra: (event: Event) => boolean = () => true) =>
  (event: Event) =>
    event.type === type && event.op === op && extra(event);

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
