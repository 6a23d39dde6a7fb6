/**
 * Budgets of queued events (server/events/hub.ts, EventHubLimits): a person
 * and their bots share one, the server has one, and over a budget the idle,
 * least recently polled queues go first (as Zulip's garbage collection
 * chooses); a dropped queue's next poll is BAD_EVENT_QUEUE_ID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientHangup,
  defaultLimits,
  EventHub,
  type EventHubLimits,
} from '../../server/events/hub.js';
import {
  DEFAULT_CLIENT_CAPABILITIES,
  type QueueOptions,
  SerialisedEvent,
} from '../../server/events/queue.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const options = (userId: number, budgetOwnerId?: number): QueueOptions => ({
  userId,
  budgetOwnerId,
  eventTypes: null,
  narrow: [],
  allPublicStreams: false,
  applyMarkdown: true,
  slimPresence: false,
  capabilities: DEFAULT_CLIENT_CAPABILITIES,
  clientName: 'test',
});

/** An event of about `bytes` bytes of JSON for `users`. */
const event = (users: number[], bytes = 1000) => ({
  type: 'custom',
  users,
  payload: { type: 'custom', text: 'x'.repeat(bytes) },
});
const costOf = (bytes = 1000) => new SerialisedEvent(event([], bytes).payload).cost;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

const staying: ClientHangup = { listen() {}, stopListening() {} };

describe('budgets of queued events', () => {
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

  it("a bot's queues count toward its owner: together they stay within one budget", () => {
    const hub = makeHub({ maxQueuedBytesPerOwner: 10 * costOf() });
    // Person 1 owns bots 11 and 12; person 2 is someone else.
    clock = 1000;
    const own = hub.register(options(1));
    clock = 2000;
    const botA = hub.register(options(11, 1));
    clock = 3000;
    const botB = hub.register(options(12, 1));
    const stranger = hub.register(options(2));
    for (let i = 0; i < 4; i++) hub.dispatch(event([1, 11, 12, 2]));
    // 12 events held at the fourth, over 10: the least recently polled queue of the three goes.
    expect(hub.queuedBytes(1)).toBe(8 * costOf());
    expect(codeOf(() => hub.get(own.id, 1))).toBe('BAD_EVENT_QUEUE_ID');
    expect(hub.get(botA.id, 11)).toBe(botA);
    expect(hub.get(botB.id, 12)).toBe(botB);
    // Each of these alone is far under the budget; a person without bots is unaffected.
    expect(hub.get(stranger.id, 2).pending()).toHaveLength(4);
    for (let i = 0; i < 3; i++) hub.dispatch(event([11, 12]));
    expect(codeOf(() => hub.get(botA.id, 11))).toBe('BAD_EVENT_QUEUE_ID');
    expect(hub.queuedBytes(1)).toBe(7 * costOf());
    expect(hub.queuedBytes(1)).toBeLessThanOrEqual(10 * costOf());
  });

  it('a queue polled lately outlasts one polled less lately, whenever it was registered', async () => {
    const hub = makeHub({ maxQueuedBytesPerOwner: 5 * costOf() });
    clock = 1000;
    const older = hub.register(options(11, 1));
    clock = 2000;
    const newer = hub.register(options(12, 1));
    for (let i = 0; i < 2; i++) hub.dispatch(event([11, 12]));
    // The older queue's client polls (acknowledging nothing), the newer one's does not.
    clock = 3000;
    await hub.poll(older, undefined, true, staying);
    hub.dispatch(event([11, 12]));
    expect(codeOf(() => hub.get(newer.id, 12))).toBe('BAD_EVENT_QUEUE_ID');
    expect(hub.get(older.id, 11).pending()).toHaveLength(3);
  });

  it('the server-wide budget drops the least recently polled idle queues of anyone', () => {
    const hub = makeHub({ maxQueuedBytes: 10 * costOf() });
    const queues = [1, 2, 3, 4].map((user) => {
      clock += 1000;
      return hub.register(options(user));
    });
    for (let i = 0; i < 3; i++) hub.dispatch(event([1, 2, 3, 4]));
    // 12 events held, the budget is 10: the stalest queue (user 1's) goes.
    expect(codeOf(() => hub.get(queues[0]!.id, 1))).toBe('BAD_EVENT_QUEUE_ID');
    for (const [i, q] of queues.slice(1).entries()) expect(hub.get(q.id, i + 2)).toBe(q);
    expect(hub.queuedBytes()).toBe(9 * costOf());
  });

  it('acknowledged and dropped events stop counting', async () => {
    const hub = makeHub({});
    const queue = hub.register(options(11, 1));
    const other = hub.register(options(1));
    for (let i = 0; i < 3; i++) hub.dispatch(event([11, 1]));
    expect(hub.queuedBytes(1)).toBe(6 * costOf());
    await hub.poll(queue, queue.lastEventId, true, staying);
    expect(hub.queuedBytes(1)).toBe(3 * costOf());
    hub.delete(other);
    expect(hub.queuedBytes(1)).toBe(0);
    expect(hub.queuedBytes()).toBe(0);
  });
});

describe('budgets over HTTP, with the default limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it("a member's bot holding more than the member's budget loses its queue; others keep theirs", async () => {
    const bot = t.as('bot'); // owned by the member
    const reg = await bot.post('/register', { event_types: ['custom'], fetch_event_types: [] });
    expect(reg.status).toBe(200);
    const admin = await t
      .as('admin')
      .post('/register', { event_types: ['custom'], fetch_event_types: [] });
    const hub = t.server.ctx.events;
    const size = 1024 * 1024;
    const events = Math.floor(defaultLimits.maxQueuedBytesPerOwner / costOf(size));
    for (let i = 0; i < events; i++) hub.dispatch(event([t.accounts.bot.id], size));
    const alive = await bot.get(
      '/events',
      { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true },
      { skipSchema: true },
    );
    expect(alive.status).toBe(200);
    expect(alive.body.events).toHaveLength(events);
    expect(hub.queuedBytes(t.accounts.member.id)).toBe(events * costOf(size));

    hub.dispatch(event([t.accounts.bot.id, t.accounts.admin.id], size));
    const gone = await bot.get('/events', {
      queue_id: reg.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(gone.status).toBe(400);
    expect(gone.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: reg.body.queue_id });
    const adminPoll = await t
      .as('admin')
      .get(
        '/events',
        { queue_id: admin.body.queue_id, last_event_id: -1, dont_block: true },
        { skipSchema: true },
      );
    expect(adminPoll.body.events).toHaveLength(1);
  });
});
