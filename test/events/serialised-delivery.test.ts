import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventHub, memoisePayload, payloadOnce } from '../../server/events/hub.js';
import {
  DEFAULT_CLIENT_CAPABILITIES,
  type EventQueue,
  type QueueOptions,
  SerialisedEvent,
} from '../../server/events/queue.js';
import { Watcher } from '../helpers/event-queues.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const options = (userId: number, applyMarkdown = false): QueueOptions => ({
  userId,
  eventTypes: null,
  narrow: [],
  allPublicStreams: false,
  applyMarkdown,
  slimPresence: false,
  capabilities: DEFAULT_CLIENT_CAPABILITIES,
  clientName: 'test',
});

describe('events stored as JSON text', () => {
  const hub = new EventHub(() => 0);
  afterAll(() => hub.close());

  it('gives each queue its own id on a shared serialisation', () => {
    const a = hub.register(options(1));
    const b = hub.register(options(2));
    b.push({ type: 'earlier' });
    hub.dispatch({ type: 'custom', users: [1, 2], payload: { type: 'custom', value: 'é"\n' } });
    expect(a.pending()).toEqual([{ type: 'custom', value: 'é"\n', id: 0 }]);
    expect(b.pending()[1]).toEqual({ type: 'custom', value: 'é"\n', id: 1 });
    expect(b.pendingJson()[1]).toBe('{"type":"custom","value":"é\\"\\n","id":1}');
  });

  it("replaces a payload's own top-level id with the queue's", () => {
    const event = new SerialisedEvent({ type: 'odd', id: 99, x: 1 });
    expect(JSON.parse(event.withId(4))).toEqual({ type: 'odd', id: 4, x: 1 });
    expect(event.withId(4).match(/"id"/g)).toHaveLength(1);
  });

  it('builds a memoised payload once per key and shapes it per key', () => {
    const built: boolean[] = [];
    const payload = memoisePayload(
      (queue: EventQueue) => String(queue.options.applyMarkdown),
      (queue) => {
        built.push(queue.options.applyMarkdown);
        return { type: 'shaped', html: queue.options.applyMarkdown };
      },
    );
    const queues = [options(3, true), options(4, false), options(5, true), options(6, false)].map(
      (o) => hub.register(o),
    );
    hub.dispatch({ type: 'shaped', users: [3, 4, 5, 6], payload });
    expect(built.sort()).toEqual([false, true]);
    expect(queues.map((q) => q.pending()[0]!.html)).toEqual([true, false, true, false]);
  });

  it('builds a payload made at delivery once for every queue', () => {
    let builds = 0;
    const payload = payloadOnce(() => {
      builds += 1;
      return { type: 'once', n: builds };
    });
    const queues = [7, 8, 9].map((id) => hub.register(options(id)));
    expect(builds).toBe(0);
    hub.dispatch({ type: 'once', users: [7, 8, 9], payload });
    expect(builds).toBe(1);
    expect(queues.map((q) => q.pending()[0]!.n)).toEqual([1, 1, 1]);
  });

  it('skips queues for which a memoised payload is null, every time', () => {
    let calls = 0;
    const payload = memoisePayload(
      () => 'same',
      () => {
        calls++;
        return null;
      },
    );
    const queues = [hub.register(options(7)), hub.register(options(8))];
    hub.dispatch({ type: 'none', users: [7, 8], payload });
    expect(calls).toBe(1);
    for (const queue of queues) expect(queue.size).toBe(0);
  });
});

describe('GET /events answer', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('names the queue and reports unknown parameters', async () => {
    const member = t.as('member');
    const { queueId } = await Watcher.register(member);
    const res = await member.get('/events', {
      queue_id: queueId,
      last_event_id: -1,
      dont_block: true,
      zzz: 1,
      aaa: 2,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      events: [],
      queue_id: queueId,
      ignored_parameters_unsupported: ['aaa', 'zzz'],
    });
  });
});
