import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Watcher } from '../helpers/event-queues.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Queues idle for 300 ms are collected; the collector runs every 50 ms. The
// clock can also be moved forward by hand (`offset`) to drive collectGarbage().
const IDLE_MS = 300;
let offset = 0;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    now: () => Date.now() + offset,
    eventTimings: { idleQueueMs: IDLE_MS, gcIntervalMs: 50, heartbeatMs: 5000 },
  });
  // Compile the response validators now: the first compile can take longer than IDLE_MS.
  const queueId = await register();
  await peek(queueId);
  await peek('warm-up');
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const register = async (): Promise<string> => (await Watcher.register(t.as('member'))).queueId;

const peek = (queueId: string) =>
  t.as('member').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });

function expectGone(res: Awaited<ReturnType<typeof peek>>, queueId: string) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    result: 'error',
    code: 'BAD_EVENT_QUEUE_ID',
    msg: `Bad event queue ID: ${queueId}`,
    queue_id: queueId,
  });
}

describe('idle event queues', () => {
  it('are garbage-collected, after which the client gets BAD_EVENT_QUEUE_ID', async () => {
    const queueId = await register();
    expect((await peek(queueId)).status).toBe(200);
    await sleep(IDLE_MS + 250);
    expectGone(await peek(queueId), queueId);
  });

  it('stay alive while the client keeps polling', async () => {
    const queueId = await register();
    for (let i = 0; i < 8; i++) {
      await sleep(IDLE_MS / 3);
      expect((await peek(queueId)).status).toBe(200);
    }
  });

  it('are not collected while a long-poll is waiting on them', async () => {
    const member = t.as('member');
    const queueId = await register();
    const poll = member.get('/events', { queue_id: queueId, last_event_id: -1 });
    await sleep(IDLE_MS * 3);
    // Still there: the waiting poll receives this event.
    const rename = await t
      .as('admin')
      .patch(`/users/${t.accounts.guest.id}`, { full_name: 'Gus the Guest' });
    expect(rename.status).toBe(200);
    const res = await poll;
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([
      {
        id: 0,
        type: 'realm_user',
        op: 'update',
        person: { user_id: t.accounts.guest.id, full_name: 'Gus the Guest' },
      },
    ]);
    // The finished poll counts as activity.
    expect((await peek(queueId)).status).toBe(200);
  });

  it('follow the server clock (collectGarbage driven by hand)', async () => {
    const queueId = await register();
    const hub = t.server.ctx.events;
    const before = hub.queueCount;
    offset += IDLE_MS / 2;
    hub.collectGarbage();
    expect(hub.queueCount).toBe(before);
    expect((await peek(queueId)).status).toBe(200); // refreshes the queue's last access
    offset += IDLE_MS / 2;
    hub.collectGarbage();
    expect((await peek(queueId)).status).toBe(200);
    offset += 10 * 60 * 1000;
    hub.collectGarbage();
    expectGone(await peek(queueId), queueId);
    const del = await t.as('member').delete('/events', { queue_id: queueId });
    expectGone(del, queueId);
  });

  it('a collected queue is replaced by registering again', async () => {
    const queueId = await register();
    offset += 10 * 60 * 1000;
    t.server.ctx.events.collectGarbage();
    expectGone(await peek(queueId), queueId);
    const fresh = await register();
    expect(fresh).not.toBe(queueId);
    expect((await peek(fresh)).status).toBe(200);
  });
});
