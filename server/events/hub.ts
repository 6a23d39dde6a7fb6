import { badEventQueue } from '../core/errors.js';
import type { AnyEventBody } from '../shared/zulip-api/index.js';
import { EventQueue, type QueueOptions, type QueueTally, SerialisedEvent } from './queue.js';

/**
 * An event as an operation emits it: either one payload for every recipient,
 * or a function that shapes the payload for each queue (apply_markdown,
 * client capabilities, per-user flags ...) and may return null to skip it.
 * Each distinct payload object is serialised once per dispatch, so a function
 * that returns the same object to queues with the same options (see
 * `memoisePayload`) costs one JSON.stringify, not one per queue.
 */
export type EventPayload<E extends EventObject = EventObject> =
  | E
  | ((queue: EventQueue) => E | null);

/** What the hub queues: any object with a `type`, the one field it reads. */
export type EventObject = { type: string } & Record<string, unknown>;

/**
 * An event of Zulip's API as operations emit it (`Tx.emit`): the module's
 * event union, so a payload no event of the description has fails typecheck.
 */
export type ApiEvent = AnyEventBody;

/**
 * A payload function that builds once per key: queues whose options give the
 * same key get the very same object, which the hub then serialises once.
 * The key must capture everything `build` reads from the queue.
 */
export function memoisePayload<E extends EventObject, K extends string | number = string>(
  keyOf: (queue: EventQueue) => K,
  build: (queue: EventQueue) => E | null,
): (queue: EventQueue) => E | null {
  const built = new Map<K, E | null>();
  return (queue) => {
    const key = keyOf(queue);
    let payload = built.get(key);
    if (payload === undefined) {
      payload = build(queue);
      built.set(key, payload);
    }
    return payload;
  };
}

/**
 * A payload built when the event is delivered (after the commit), once for
 * every queue: a payload function that ignores the queue would otherwise
 * build, and the hub serialise, a new object per queue.
 */
export function payloadOnce<E extends EventObject>(build: () => E | null): () => E | null {
  let built: E | null | undefined;
  return () => {
    if (built === undefined) built = build();
    return built;
  };
}

export interface PendingEvent<E extends EventObject = EventObject> {
  /** The event type, used for the queues' event_types filter. */
  type: E['type'];
  users: Iterable<number>;
  payload: EventPayload<E>;
  /** Only the queue with this id gets the event (e.g. local echo data). */
  onlyQueueId?: string;
  /**
   * What in-process observers (EventHub.observe) learn of a committed new
   * message; never sent to clients.
   */
  newMessage?: NewMessageFacts;
}

/** A stored message as observers see it after the commit. */
export interface NewMessageFacts {
  messageId: number;
  senderId: number;
  /** True for a channel message, false for a direct message. */
  isChannel: boolean;
  /** Every recipient (the sender included). */
  recipients: readonly number[];
  /** Users mentioned by name (not wildcards), recipients or not. */
  mentioned: readonly number[];
}

/** Called after the commit, once per event, before the queues get it. */
export type EventObserver = (event: PendingEvent) => void;

/**
 * How a waiting long-poll learns that its client has gone; the HTTP door
 * implements it on the connection.
 */
export interface ClientHangup {
  /** Calls `listener.hungUp()` once the client disconnects (at once if it already has). */
  listen(listener: HangupListener): void;
  /** Stops calling the listener. */
  stopListening(): void;
}

/** What waits on a ClientHangup: an object, so that a parked poll needs no closure. */
export interface HangupListener {
  hungUp(): void;
}

export interface EventHubTimings {
  /** A blocking GET /events with nothing to deliver answers a heartbeat after this. */
  heartbeatMs: number;
  /** Queues not polled for this long are garbage-collected. */
  idleQueueMs: number;
  gcIntervalMs: number;
}

const heartbeat = new SerialisedEvent({ type: 'heartbeat' });

/** Who a poll answers: the events as the text inside a JSON array (EventQueue.pendingText). */
export interface PollAnswer {
  answer(events: string): void;
}

/**
 * A long-poll waiting on its queue until an event, the heartbeat or the
 * client going away, whichever comes first. A class rather than closures:
 * a thousand of them park again after every message.
 */
class ParkedPoll implements HangupListener {
  private timer: NodeJS.Timeout | undefined;
  private hangup: ClientHangup | undefined;
  private done = false;

  constructor(
    private readonly queue: EventQueue,
    private readonly now: () => number,
    private readonly to: PollAnswer,
  ) {}

  park(heartbeatMs: number, hangup: ClientHangup): void {
    this.timer = setTimeout(beat, heartbeatMs, this);
    this.queue.setWaiter(this);
    this.hangup = hangup;
    hangup.listen(this);
    if (this.done) hangup.stopListening();
  }

  beat(): void {
    if (this.queue.size === 0) this.queue.push(heartbeat);
    this.wake();
  }

  hungUp(): void {
    this.wake();
  }

  wake(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.hangup?.stopListening();
    this.queue.clearWaiter(this);
    this.queue.lastAccessMs = this.now();
    this.to.answer(this.queue.pendingText());
  }
}

const beat = (poll: ParkedPoll) => poll.beat();

export const defaultTimings: EventHubTimings = {
  heartbeatMs: 50_000,
  idleQueueMs: 600_000,
  gcIntervalMs: 60_000,
};

/**
 * Bounds on memory that clients control. A client that polls but never
 * acknowledges keeps its queue alive forever, a script can register in a
 * loop, and a member can make bots (each with its own queues) without
 * limit; past these limits a queue is dropped and its client, told
 * BAD_EVENT_QUEUE_ID, registers afresh.
 *
 * Zulip bounds queues only by time (idle ones are collected after 10
 * minutes, see EventHubTimings); Hearth runs on one desktop machine, so it
 * also bounds what they hold. Queued events are counted in bytes (their
 * JSON text plus a queue's entry for each: SerialisedEvent.cost), since one
 * event can be a hundred times another. Over a budget, the queues dropped
 * are the ones Zulip's garbage collection would take first: the least
 * recently polled.
 */
export interface EventHubLimits {
  /** Unacknowledged events one queue may hold. */
  maxEventsPerQueue: number;
  /** Queues one user may hold; a new one replaces their least recently polled. */
  maxQueuesPerUser: number;
  /** Bytes of queued events one person may hold in their queues and their bots' together. */
  maxQueuedBytesPerOwner: number;
  /** Bytes of queued events in every queue of the server. */
  maxQueuedBytes: number;
}

const MIB = 1024 * 1024;

/**
 * A queue polled as clients do holds a few events; one left unpolled holds
 * at most the idle timeout's worth (10 minutes) before it is collected.
 * 32 MiB is far beyond that for a person with several devices and bots,
 * and 256 MiB across the server keeps the desktop app's memory within
 * reason when many are at their budget at once.
 */
export const defaultLimits: EventHubLimits = {
  maxEventsPerQueue: 10_000,
  maxQueuesPerUser: 50,
  maxQueuedBytesPerOwner: 32 * MIB,
  maxQueuedBytes: 256 * MIB,
};

const budgetOwnerOf = (options: QueueOptions) => options.budgetOwnerId ?? options.userId;

/** The queues counted toward one person's budget: theirs and their bots'. */
interface BudgetOwner {
  tally: QueueTally;
  queues: Set<EventQueue>;
}

/**
 * When a queue was last polled, for choosing which to drop: a queue whose
 * client is waiting on it now is being polled now, however long ago its
 * poll began (a long-poll waits up to a heartbeat; Zulip's collector never
 * takes a queue with a client connected either).
 */
const lastPolledMs = (queue: EventQueue, now: number) =>
  queue.hasWaiter ? now : queue.lastAccessMs;

/**
 * Drops `queues` until `tally` is within `budget`, the least recently polled
 * first, as Zulip's garbage collection picks idle queues. (A queue whose
 * client is waiting holds no events: any event wakes the poll, which
 * answers it.) An empty queue is kept, since dropping it would free nothing.
 */
function dropLeastRecentlyPolled(
  hub: EventHub,
  queues: Iterable<EventQueue>,
  tally: QueueTally,
  budget: number,
): void {
  const order = [...queues].filter((queue) => queue.bytes > 0);
  order.sort((a, b) => a.lastAccessMs - b.lastAccessMs);
  for (const queue of order) {
    if (tally.bytes <= budget) return;
    hub.delete(queue);
  }
}

/**
 * All event queues of this server, in memory (as in Zulip, queues do not
 * survive a restart; clients re-register on BAD_EVENT_QUEUE_ID).
 */
export class EventHub {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  private readonly owners = new Map<number, BudgetOwner>();
  private readonly serverTally: QueueTally = { bytes: 0 };
  private readonly gcTimer: NodeJS.Timeout;
  private closed = false;
  private dispatchCount = 0;
  private readonly observers = new Set<EventObserver>();
  /** Extra filter applied per queue, e.g. the register narrow for message events. */
  queueFilter: (queue: EventQueue, type: string, payload: Record<string, unknown>) => boolean =
    () => true;

  constructor(
    private readonly now: () => number,
    readonly timings: EventHubTimings = defaultTimings,
    readonly limits: EventHubLimits = defaultLimits,
  ) {
    this.gcTimer = setInterval(() => this.collectGarbage(), timings.gcIntervalMs);
    this.gcTimer.unref();
  }

  register(options: QueueOptions): EventQueue {
    const ownerId = budgetOwnerOf(options);
    let owner = this.owners.get(ownerId);
    if (!owner) {
      owner = { tally: { bytes: 0 }, queues: new Set() };
      this.owners.set(ownerId, owner);
    }
    const now = this.now();
    const queue = new EventQueue(options, now, owner.tally, this.serverTally);
    owner.queues.add(queue);
    this.queues.set(queue.id, queue);
    let set = this.byUser.get(options.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(options.userId, set);
    }
    set.add(queue);
    if (set.size > this.limits.maxQueuesPerUser) {
      let stalest: EventQueue | null = null;
      for (const candidate of set) {
        if (candidate === queue) continue;
        if (!stalest || lastPolledMs(candidate, now) < lastPolledMs(stalest, now)) {
          stalest = candidate;
        }
      }
      if (stalest) this.delete(stalest);
    }
    return queue;
  }

  /** The caller's queue, or BAD_EVENT_QUEUE_ID (also for another user's queue). */
  get(queueId: string, userId: number): EventQueue {
    const queue = this.find(queueId, userId);
    if (!queue) throw badEventQueue(queueId);
    return queue;
  }

  /** The caller's queue, or undefined (none by that id, or another user's). */
  find(queueId: string, userId: number): EventQueue | undefined {
    const queue = this.queues.get(queueId);
    return queue && queue.userId === userId ? queue : undefined;
  }

  delete(queue: EventQueue): void {
    if (!this.queues.delete(queue.id)) return;
    const set = this.byUser.get(queue.userId);
    set?.delete(queue);
    if (set && set.size === 0) this.byUser.delete(queue.userId);
    const ownerId = budgetOwnerOf(queue.options);
    const owner = this.owners.get(ownerId);
    owner?.queues.delete(queue);
    if (owner && owner.queues.size === 0) this.owners.delete(ownerId);
    queue.release();
    queue.setWaiter(null);
  }

  /** Bytes of queued events: the server's, or one budget owner's (a person and their bots). */
  queuedBytes(ownerId?: number): number {
    if (ownerId === undefined) return this.serverTally.bytes;
    return this.owners.get(ownerId)?.tally.bytes ?? 0;
  }

  queuesOf(userId: number): Iterable<EventQueue> {
    return this.byUser.get(userId) ?? [];
  }

  get queueCount(): number {
    return this.queues.size;
  }

  /**
   * Lets an in-process reaction (outgoing webhooks) see committed events
   * without the emitting area knowing of it. Returns the unsubscribe.
   */
  observe(observer: EventObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  dispatch(event: PendingEvent): void {
    for (const observer of this.observers) observer(event);
    const serialised = new Map<object, SerialisedEvent>();
    // A user listed twice must not get the event twice; marking the queues
    // reached costs less than a set of every user (a channel's subscribers).
    const dispatchId = ++this.dispatchCount;
    const { maxQueuedBytesPerOwner } = this.limits;
    let overBudget: Set<number> | null = null;
    for (const userId of event.users) {
      const queues = this.byUser.get(userId);
      if (!queues) continue;
      for (const queue of queues) {
        if (queue.lastDispatchId === dispatchId) continue;
        queue.lastDispatchId = dispatchId;
        if (event.onlyQueueId !== undefined && queue.id !== event.onlyQueueId) continue;
        if (!queue.wants(event.type)) continue;
        const payload = typeof event.payload === 'function' ? event.payload(queue) : event.payload;
        if (!payload) continue;
        if (!this.queueFilter(queue, event.type, payload)) continue;
        let text = serialised.get(payload);
        if (!text) {
          text = new SerialisedEvent(payload);
          serialised.set(payload, text);
        }
        queue.push(text);
        if (queue.size > this.limits.maxEventsPerQueue) this.delete(queue);
        else if (queue.ownerTally.bytes > maxQueuedBytesPerOwner) {
          overBudget ??= new Set();
          overBudget.add(budgetOwnerOf(queue.options));
        }
      }
    }
    if (overBudget) this.enforceOwnerBudgets(overBudget);
    if (this.serverTally.bytes > this.limits.maxQueuedBytes) {
      dropLeastRecentlyPolled(
        this,
        this.queues.values(),
        this.serverTally,
        this.limits.maxQueuedBytes,
      );
    }
  }

  private enforceOwnerBudgets(ownerIds: Set<number>): void {
    for (const ownerId of ownerIds) {
      const owner = this.owners.get(ownerId);
      if (owner)
        dropLeastRecentlyPolled(
          this,
          owner.queues,
          owner.tally,
          this.limits.maxQueuedBytesPerOwner,
        );
    }
  }

  /**
   * GET /events: acknowledge, then answer at once if events are pending (or
   * dont_block), else wait for one, a heartbeat, or the client going away.
   * Answers the events as the text inside a JSON array (EventQueue.pendingText).
   */
  poll(
    queue: EventQueue,
    lastEventId: number | undefined,
    dontBlock: boolean,
    hangup: ClientHangup,
  ): Promise<string> {
    return new Promise((resolve) =>
      this.pollThen(queue, lastEventId, dontBlock, hangup, { answer: resolve }),
    );
  }

  /**
   * `poll` without a promise, for the long-poll's lean path (http/lean-events.ts):
   * a thousand queues answer and park again after every message. Throws
   * (before anything else happens) when the acknowledgement is refused;
   * otherwise answers `to` exactly once, now or when the poll wakes.
   */
  pollThen(
    queue: EventQueue,
    lastEventId: number | undefined,
    dontBlock: boolean,
    hangup: ClientHangup,
    to: PollAnswer,
  ): void {
    queue.lastAccessMs = this.now();
    if (lastEventId !== undefined) queue.acknowledge(lastEventId);
    if (queue.size > 0 || dontBlock || this.closed) {
      to.answer(queue.pendingText());
      return;
    }
    new ParkedPoll(queue, this.now, to).park(this.timings.heartbeatMs, hangup);
  }

  collectGarbage(): void {
    const cutoff = this.now() - this.timings.idleQueueMs;
    for (const queue of this.queues.values()) {
      if (!queue.hasWaiter && queue.lastAccessMs < cutoff) this.delete(queue);
    }
  }

  /** Wake every long-poll so in-flight requests finish during shutdown. */
  close(): void {
    this.closed = true;
    clearInterval(this.gcTimer);
    for (const queue of this.queues.values()) queue.setWaiter(null);
  }
}
