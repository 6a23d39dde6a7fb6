/**
 * Event queues read the way a test wants them: registered through
 * POST /register, read through GET /events without blocking, each read
 * acknowledging what it returned. A Watchers set holds one queue per name
 * (a user, or a user with particular register parameters), so a test can
 * check which queues an action reached and which it did not.
 *
 *   const watchers = new Watchers(t);
 *   await watchers.add('member');                      // the member fixture, every event type
 *   await watchers.add('lee', lee, { event_types: ['stream'] });
 *   await watchers.clear();                            // forget what setting up sent
 *   ...act...
 *   const events = await watchers.take();              // { member: [...], lee: [...] }
 *   expect(receivers(events, isEvent('stream', 'create'))).toEqual(['lee']);
 */
import { expect } from 'vitest';
import type { Account, ApiClient, FixtureName, TestServer } from './server.js';

// biome-ignore lint/suspicious/noExplicitAny: events are arbitrary JSON
export type Event = any;

type Params = Record<string, unknown>;

/** Events by queue name, as Watchers.take() returns them. */
export type EventsByName = Record<string, Event[]>;

/** One registered queue; each take() returns (and acknowledges) the events since the last. */
export class Watcher {
  private lastId = -1;

  constructor(
    readonly name: string,
    readonly client: ApiClient,
    readonly queueId: string,
  ) {}

  /**
   * Registers a queue for the client. Nothing is fetched unless `params` asks
   * (fetch_event_types defaults to none); every event type is queued unless
   * `params.event_types` narrows it.
   */
  static async register(client: ApiClient, params: Params = {}, name = 'queue'): Promise<Watcher> {
    const res = await client.post('/register', { fetch_event_types: [], ...params });
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
    return new Watcher(name, client, res.body.queue_id);
  }

  /** The events queued since the last take(), only those of `type` when given. */
  async take(type?: string): Promise<Event[]> {
    const res = await this.client.get('/events', {
      queue_id: this.queueId,
      last_event_id: this.lastId,
      dont_block: true,
    });
    expect(res.status, `${this.name}: ${JSON.stringify(res.body)}`).toBe(200);
    const events: Event[] = res.body.events;
    if (events.length > 0) this.lastId = events[events.length - 1].id;
    return type === undefined ? events : events.filter((e) => e.type === type);
  }
}

/** A named set of queues, drained together. */
export class Watchers {
  private readonly watchers = new Map<string, Watcher>();

  /** `defaults` are register parameters every add() starts from. */
  constructor(
    private readonly t: TestServer,
    private readonly defaults: Params = {},
  ) {}

  /** Registers a queue for `who` (by default the fixture user called `name`). */
  async add(
    name: string,
    who: FixtureName | Account = name as FixtureName,
    params: Params = {},
  ): Promise<Watcher> {
    if (this.watchers.has(name)) throw new Error(`a queue called ${name} is already watched`);
    const watcher = await Watcher.register(this.t.as(who), { ...this.defaults, ...params }, name);
    this.watchers.set(name, watcher);
    return watcher;
  }

  /** The names of the queues, in the order they were added. */
  names(): string[] {
    return [...this.watchers.keys()];
  }

  get(name: string): Watcher {
    const watcher = this.watchers.get(name);
    if (!watcher) throw new Error(`no queue called ${name}`);
    return watcher;
  }

  /** Every queue's new events by name (only those of `type` when given). */
  async take(type?: string): Promise<EventsByName> {
    const out: EventsByName = {};
    for (const [name, watcher] of this.watchers) out[name] = await watcher.take(type);
    return out;
  }

  /** Drops whatever is pending, so the next take() sees only what follows. */
  async clear(): Promise<void> {
    await this.take();
  }
}

/** The events of one type out of a take() result. */
export const only = (events: EventsByName, type: string): EventsByName =>
  Object.fromEntries(
    Object.entries(events).map(([name, list]) => [name, list.filter((e) => e.type === type)]),
  );

/** The names, sorted, of the queues with an event matching `predicate` (any event by default). */
export function receivers(
  events: EventsByName,
  predicate: (event: Event) => boolean = () => true,
): string[] {
  return Object.entries(events)
    .filter(([, list]) => list.some(predicate))
    .map(([name]) => name)
    .sort();
}

/** A predicate for receivers(): events of this type and op (and `extra`, when given). */
export const isEvent =
  (type: string, op: string, extra: (event: Event) => boolean = () => true) =>
  (event: Event) =>
    event.type === type && event.op === op && extra(event);
