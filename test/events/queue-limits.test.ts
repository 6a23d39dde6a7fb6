import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientHangup,
  defaultLimits,
  EventHub,
  type EventHubLimits,
} from '../../server/events/hub.js';
import {
  DEFAULT_CLIENT_CAPABILITIES,
  type EventQueue,
  type QueueOptions,
} from '../../server/events/queue.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/*
 * A client that keeps polling but never acknowledges (or a script that
 * registers in a loop) must not grow the server's memory without bound:
 * an overfull queue is dropped, so its client re-registers, and a user's
 * oldest queue makes room for a new one.
 */

const options = (userId: number): QueueOptions => ({
  userId,
  eventTypes: null,
  narrow: [],
  allPublicStreams: false,
  applyMarkdown: true,
  slimPresence: false,
  capabilities: DEFAULT_CLIENT_CAPABILITIES,
  clientName: 'test',
});

const event = (users: number[]) => ({ type: 'custom', users, payload: { type: 'custom' } });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('EventHub limits', () => {
  let clock = 0;
  const hubs: EventHub[] = [];
  const makeHub = (limits: Partial<EventHubLimits>) => {
    const hub = new EventHub(() => clock, undefined, { ...defaultLimits, ...limits });
    hubs.push(hub);
    return hub;
  };
  afterAll(() => {
    for (const hub of hubs) hub.close();
  });

  it('drops a queue whose unacknowledged events exceed the cap', () => {
    const hub = makeHub({ maxEventsPerQueue: 5, maxQueuesPerUser: 10 });
    const full = hub.register(options(1));
    const other = hub.register(options(2));
    for (let i = 0; i < 5; i++) hub.dispatch(event([1, 2]));
    expect(hub.get(full.id, 1).pending()).toHaveLength(5);
    hub.dispatch(event([1]));
    expect(codeOf(() => hub.get(full.id, 1))).toBe('BAD_EVENT_QUEUE_ID');
    // Other users' queues are unaffected.
    expect(hub.get(other.id, 2).pending()).toHaveLength(5);
  });

  it('counts only what the client has not acknowledged', async () => {
    const hub = makeHub({ maxEventsPerQueue: 5, maxQueuesPerUser: 10 });
    const queue = hub.register(options(1));
    const stayingClient: ClientHangup = { listen() {}, stopListening() {} };
    let seen = -1;
    for (let round = 0; round < 4; round++) {
      // Each poll acknowledges what the previous one returned.
      await hub.poll(queue, seen, true, stayingClient);
      for (let i = 0; i < 4; i++) hub.dispatch(event([1]));
      expect(queue.pending()).toHaveLength(4);
      seen = queue.lastEventId;
    }
    expect(hub.get(queue.id, 1)).toBe(queue);
  });

  it("drops a user's least recently polled queue when they register one too many", async () => {
    const hub = makeHub({ maxEventsPerQueue: 100, maxQueuesPerUser: 3 });
    const stayingClient: ClientHangup = { listen() {}, stopListening() {} };
    const queues: EventQueue[] = [];
    for (let i = 0; i < 3; i++) {
      clock += 1000;
      queues.push(hub.register(options(1)));
    }
    const stranger = hub.register(options(2));
    // The first queue is polled again, so the second is now the stalest.
    clock += 1000;
    await hub.poll(queues[0]!, undefined, true, stayingClient);
    clock += 1000;
    const newest = hub.register(options(1));
    expect(codeOf(() => hub.get(queues[1]!.id, 1))).toBe('BAD_EVENT_QUEUE_ID');
    for (const q of [queues[0]!, queues[2]!, newest]) expect(hub.get(q.id, 1)).toBe(q);
    expect(hub.get(stranger.id, 2)).toBe(stranger);
    expect([...hub.queuesOf(1)]).toHaveLength(3);
  });

  it('never counts a queue whose client is waiting on it as the least recently polled', async () => {
    const hub = makeHub({ maxEventsPerQueue: 100, maxQueuesPerUser: 3 });
    const stayingClient: ClientHangup = { listen() {}, stopListening() {} };
    // The chat's queue: polled first, and its long-poll still waiting.
    const waiting = hub.register(options(1));
    const answered = hub.poll(waiting, undefined, false, stayingClient);
    clock += 30_000;
    const idle = hub.register(options(1));
    clock += 1000;
    hub.register(options(1));
    clock += 1000;
    hub.register(options(1));
    expect(hub.get(waiting.id, 1)).toBe(waiting);
    expect(codeOf(() => hub.get(idle.id, 1))).toBe('BAD_EVENT_QUEUE_ID');
    // Its poll is still parked, and an event reaches it.
    hub.dispatch(event([1]));
    expect((await answered).length).toBeGreaterThan(0);
  });
});

describe('event queue limits over HTTP, with the default limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('a queue that never acknowledges is dropped and the client told to re-register', async () => {
    const member = t.as('member');
    const reg = await member.post('/register', { event_types: ['custom'], fetch_event_types: [] });
    expect(reg.status).toBe(200);
    const queueId: string = reg.body.queue_id;
    const hub = t.server.ctx.events;
    for (let i = 0; i < defaultLimits.maxEventsPerQueue; i++) {
      hub.dispatch(event([t.accounts.member.id]));
    }
    const alive = await member.get(
      '/events',
      { queue_id: queueId, last_event_id: -1, dont_block: true },
      { skipSchema: true },
    );
    expect(alive.status).toBe(200);
    expect(alive.body.events).toHaveLength(defaultLimits.maxEventsPerQueue);

    hub.dispatch(event([t.accounts.member.id]));
    const gone = await member.get('/events', {
      queue_id: queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(gone.status).toBe(400);
    expect(gone.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('one user cannot hold more than the per-user number of queues', async () => {
    const admin = t.as('admin');
    const ids: string[] = [];
    for (let i = 0; i < defaultLimits.maxQueuesPerUser + 5; i++) {
      const res = await admin.post('/register', { event_types: ['custom'], fetch_event_types: [] });
      expect(res.status).toBe(200);
      ids.push(res.body.queue_id);
    }
    expect([...t.server.ctx.events.queuesOf(t.accounts.admin.id)]).toHaveLength(
      defaultLimits.maxQueuesPerUser,
    );
    const newest = await admin.get('/events', {
      queue_id: ids.at(-1),
      last_event_id: -1,
      dont_block: true,
    });
    expect(newest.status).toBe(200);
  });
});
