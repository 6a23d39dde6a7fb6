import { randomUUID } from 'node:crypto';
import { badRequest } from '../core/errors.js';

/** What a client asked for when it registered; fixed for the queue's life. */
export interface QueueOptions {
  userId: number;
  /** null = every event type */
  eventTypes: Set<string> | null;
  narrow: NarrowTerm[];
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  slimPresence: boolean;
  capabilities: ClientCapabilities;
  clientName: string;
  /**
   * Whose budget of queued events the queue counts toward (EventHubLimits):
   * a bot's owner, else the user (the default).
   */
  budgetOwnerId?: number;
}

export interface NarrowTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

export interface ClientCapabilities {
  notification_settings_null: boolean;
  bulk_message_deletion: boolean;
  user_avatar_url_field_optional: boolean;
  stream_typing_notifications: boolean;
  user_settings_object: boolean;
  linkifier_url_template: boolean;
  user_list_incomplete: boolean;
  include_deactivated_groups: boolean;
  archived_channels: boolean;
  empty_topic_name: boolean;
  simplified_presence_events: boolean;
}

/** What a client that names no capability gets: every capability off. */
export const DEFAULT_CLIENT_CAPABILITIES: ClientCapabilities = {
  notification_settings_null: false,
  bulk_message_deletion: false,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: false,
  user_settings_object: false,
  linkifier_url_template: false,
  user_list_incomplete: false,
  include_deactivated_groups: false,
  archived_channels: false,
  empty_topic_name: false,
  simplified_presence_events: false,
};

export type QueuedEvent = { id: number; type: string } & Record<string, unknown>;

/**
 * An event as JSON text, made once and shared by every queue that gets the
 * same payload. `open` is the object's text without its closing brace, so a
 * queue appends its own event id without re-serialising; null when the
 * payload has a top-level `id` of its own, which the queue's id replaces.
 */
export class SerialisedEvent {
  private readonly open: string | null;
  /** What one queue holding it is counted as: its text and the queue's entry for it. */
  readonly cost: number;

  constructor(readonly payload: { type: string } & Record<string, unknown>) {
    this.open = Object.hasOwn(payload, 'id') ? null : JSON.stringify(payload).slice(0, -1);
    this.cost = (this.open ?? JSON.stringify(payload)).length + QUEUED_EVENT_OVERHEAD_BYTES;
  }

  withId(id: number): string {
    return this.open === null
      ? JSON.stringify({ ...this.payload, id })
      : `${this.open},"id":${id}}`;
  }
}

/**
 * Roughly what a queue's entry for an event costs besides the shared text
 * (the entry object and its slot): counted so that a flood of small shared
 * events weighs what it holds.
 */
export const QUEUED_EVENT_OVERHEAD_BYTES = 64;

/** Bytes of queued events counted together: one owner's queues, or the server's. */
export interface QueueTally {
  bytes: number;
}

/** An event as a queue holds it: the shared text and this queue's id for it. */
interface StoredEvent {
  id: number;
  event: SerialisedEvent;
}

interface Waiter {
  wake(): void;
}

/**
 * One client's event queue. Events get increasing ids; the client
 * acknowledges with last_event_id, which discards everything up to it.
 */
export class EventQueue {
  readonly id: string = randomUUID();
  readonly options: QueueOptions;
  /** Kept as shared text: a poll answer concatenates them, never re-serialising. */
  private events: StoredEvent[] = [];
  private nextEventId = 0;
  private newestPrunedId = -1;
  lastAccessMs: number;
  /** The last EventHub.dispatch that reached this queue. */
  lastDispatchId = 0;
  private waiter: Waiter | null = null;
  /** The cost of the events held (SerialisedEvent.cost), also added to both tallies. */
  private heldBytes = 0;
  private released = false;

  constructor(
    options: QueueOptions,
    nowMs: number,
    /** The budget owner's tally (EventHub's limits); a fresh one by default. */
    readonly ownerTally: QueueTally = { bytes: 0 },
    /** The server's tally. */
    readonly serverTally: QueueTally = { bytes: 0 },
  ) {
    this.options = options;
    this.lastAccessMs = nowMs;
  }

  /** What the held events cost, in bytes (see QUEUED_EVENT_OVERHEAD_BYTES). */
  get bytes(): number {
    return this.heldBytes;
  }

  private count(bytes: number): void {
    this.heldBytes += bytes;
    if (this.released) return;
    this.ownerTally.bytes += bytes;
    this.serverTally.bytes += bytes;
  }

  get userId(): number {
    return this.options.userId;
  }

  /** The last id handed out; POST /register returns it as last_event_id. */
  get lastEventId(): number {
    return this.nextEventId - 1;
  }

  wants(type: string): boolean {
    return this.options.eventTypes === null || this.options.eventTypes.has(type);
  }

  push(event: SerialisedEvent | ({ type: string } & Record<string, unknown>)): void {
    const serialised = event instanceof SerialisedEvent ? event : new SerialisedEvent(event);
    const id = this.nextEventId++;
    this.events.push({ id, event: serialised });
    this.count(serialised.cost);
    this.waiter?.wake();
  }

  /** Zulip refuses acknowledgements that cannot match this queue's history. */
  acknowledge(lastEventId: number): void {
    if (lastEventId < this.newestPrunedId) {
      throw badRequest(`An event newer than ${lastEventId} has already been pruned!`);
    }
    let drop = 0;
    let freed = 0;
    while (drop < this.events.length && this.events[drop]!.id <= lastEventId) {
      freed += this.events[drop]!.event.cost;
      drop++;
    }
    if (drop > 0) {
      this.count(-freed);
      this.newestPrunedId = this.events[drop - 1]!.id;
      this.events.splice(0, drop);
    }
    if (lastEventId !== this.newestPrunedId) {
      throw badRequest(`Event ${lastEventId} was not in this queue`);
    }
  }

  /** Events not yet acknowledged. */
  get size(): number {
    return this.events.length;
  }

  /**
   * The unacknowledged events as the text between a JSON array's brackets,
   * oldest first: what GET /events sends, joined in one pass from the shared
   * texts (a queue keeps no text of its own per event).
   */
  pendingText(): string {
    const parts = new Array<string>(this.events.length);
    for (let i = 0; i < parts.length; i++) {
      const { id, event } = this.events[i]!;
      parts[i] = event.withId(id);
    }
    return parts.join(',');
  }

  /** The unacknowledged events' JSON texts, oldest first. */
  pendingJson(): string[] {
    return this.events.map(({ id, event }) => event.withId(id));
  }

  /** The unacknowledged events as objects (for inspection; polls use pendingText). */
  pending(): QueuedEvent[] {
    return this.pendingJson().map((json) => JSON.parse(json) as QueuedEvent);
  }

  get hasWaiter(): boolean {
    return this.waiter !== null;
  }

  /** At most one long-poll per queue; a newer one replaces (and wakes) the older. */
  setWaiter(waiter: Waiter | null): void {
    const previous = this.waiter;
    this.waiter = waiter;
    if (previous && previous !== waiter) previous.wake();
  }

  clearWaiter(waiter: Waiter): void {
    if (this.waiter === waiter) this.waiter = null;
  }

  /**
   * The queue is dropped: its events no longer count toward the tallies (a
   * poll waiting on it still answers them; then nothing refers to it).
   */
  release(): void {
    if (this.released) return;
    this.ownerTally.bytes -= this.heldBytes;
    this.serverTally.bytes -= this.heldBytes;
    this.released = true;
  }
}
