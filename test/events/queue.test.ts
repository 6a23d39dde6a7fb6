import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Watcher } from '../helpers/event-queues.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

// A short heartbeat, so an idle long-poll answers within the test.
const HEARTBEAT_MS = 200;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ eventTimings: { heartbeatMs: HEARTBEAT_MS } });
});
afterAll(() => t.close());

let renames = 0;
/**
 * Makes an event for everyone: an administrator renames the moderator
 * (realm_user update). Cheaper than creating a user, whose password hashing
 * can take longer than the short heartbeat of this file.
 */
async function triggerEvent(): Promise<string> {
  renames++;
  const fullName = `Mo Moderator ${renames}`;
  const res = await t
    .as('admin')
    .patch(`/users/${t.accounts.moderator.id}`, { full_name: fullName });
  expect(res.status).toBe(200);
  return fullName;
}

const register = async (client: ApiClient, params: Record<string, unknown> = {}) =>
  (await Watcher.register(client, params)).queueId;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GET /events', () => {
  it('answers at once with no events when dont_block is true', async () => {
    const member = t.as('member');
    const queueId = await register(member);
    const params = { queue_id: queueId, last_event_id: -1, dont_block: true };
    const res = await member.get('/events', params);
    expect(res.status).toBe(200);
    // A poll that had waited would have ended with a heartbeat.
    expect(res.body).toMatchObject({ result: 'success', msg: '', events: [] });
    const started = Date.now();
    const again = await member.get('/events', params);
    expect(again.body.events).toEqual([]);
    expect(Date.now() - started).toBeLessThan(HEARTBEAT_MS);
  });

  it('gives events increasing ids from 0 and discards acknowledged ones', async () => {
    const member = t.as('member');
    const queueId = await register(member, { event_types: ['realm_user'] });
    const first = await triggerEvent();
    const second = await triggerEvent();
    const third = await triggerEvent();

    const all = await member.get('/events', {
      queue_id: queueId,
      last_event_id: -1,
      dont_block: true,
    });
    const events = all.body.events;
    expect(events.map((e: { id: number }) => e.id)).toEqual([0, 1, 2]);
    expect(events.map((e: { person: { full_name: string } }) => e.person.full_name)).toEqual([
      first,
      second,
      third,
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        type: 'realm_user',
        op: 'update',
        person: { user_id: t.accounts.moderator.id },
      });
    }

    // Not acknowledged yet: the same events again.
    const again = await member.get('/events', {
      queue_id: queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(again.body.events.map((e: { id: number }) => e.id)).toEqual([0, 1, 2]);

    const afterAck = await member.get('/events', {
      queue_id: queueId,
      last_event_id: 1,
      dont_block: true,
    });
    expect(afterAck.body.events.map((e: { id: number }) => e.id)).toEqual([2]);

    const allAcked = await member.get('/events', {
      queue_id: queueId,
      last_event_id: 2,
      dont_block: true,
    });
    expect(allAcked.body.events).toEqual([]);

    await triggerEvent();
    const next = await member.get('/events', {
      queue_id: queueId,
      last_event_id: 2,
      dont_block: true,
    });
    expect(next.body.events.map((e: { id: number }) => e.id)).toEqual([3]);
  });

  it('refuses to acknowledge an id older than what was already pruned', async () => {
    const member = t.as('member');
    const queueId = await register(member, { event_types: ['realm_user'] });
    await triggerEvent();
    await triggerEvent();
    await triggerEvent();
    const ack = await member.get('/events', {
      queue_id: queueId,
      last_event_id: 1,
      dont_block: true,
    });
    expect(ack.status).toBe(200);
    const res = await member.get('/events', {
      queue_id: queueId,
      last_event_id: 0,
      dont_block: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'An event newer than 0 has already been pruned!',
    });
    // The queue survives the client's mistake.
    const ok = await member.get('/events', {
      queue_id: queueId,
      last_event_id: 1,
      dont_block: true,
    });
    expect(ok.body.events.map((e: { id: number }) => e.id)).toEqual([2]);
  });

  it('refuses to acknowledge an id the queue never had', async () => {
    const member = t.as('member');
    const queueId = await register(member, { event_types: ['realm_user'] });
    const res = await member.get('/events', {
      queue_id: queueId,
      last_event_id: 5,
      dont_block: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Event 5 was not in this queue' });
  });

  it('wakes a blocking poll when an event arrives', async () => {
    const member = t.as('member');
    const queueId = await register(member, { event_types: ['realm_user'] });
    const started = Date.now();
    const poll = member.get('/events', { queue_id: queueId, last_event_id: -1 });
    await sleep(50);
    const fullName = await triggerEvent();
    const res = await poll;
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([
      {
        id: 0,
        type: 'realm_user',
        op: 'update',
        person: { user_id: t.accounts.moderator.id, full_name: fullName },
      },
    ]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('answers a heartbeat when nothing happens', async () => {
    const member = t.as('member');
    // A type that nothing in this test emits; heartbeats ignore the filter.
    const queueId = await register(member, { event_types: ['typing'] });
    const started = Date.now();
    const res = await member.get('/events', { queue_id: queueId, last_event_id: -1 });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
    expect(elapsed).toBeGreaterThanOrEqual(HEARTBEAT_MS - 20);
    expect(elapsed).toBeLessThan(HEARTBEAT_MS + 1500);
    // Heartbeats are events like any other: acknowledged by id.
    const next = await member.get('/events', { queue_id: queueId, last_event_id: 0 });
    expect(next.body.events).toEqual([{ type: 'heartbeat', id: 1 }]);
  });

  it('finishes an older poll when a newer one arrives on the same queue', async () => {
    const member = t.as('member');
    // Nothing arrives on this queue but heartbeats.
    const queueId = await register(member, { event_types: ['typing'] });
    const older = member.get('/events', { queue_id: queueId, last_event_id: -1 });
    await sleep(30);
    const started = Date.now();
    const newer = member.get('/events', { queue_id: queueId, last_event_id: -1 });
    const first = await older;
    expect(Date.now() - started).toBeLessThan(HEARTBEAT_MS);
    expect(first.status).toBe(200);
    expect(first.body.events).toEqual([]);
    const second = await newer;
    expect(second.status).toBe(200);
    expect(second.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('says BAD_EVENT_QUEUE_ID for an unknown queue', async () => {
    const res = await t
      .as('member')
      .get('/events', { queue_id: 'no-such-queue', last_event_id: -1, dont_block: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'BAD_EVENT_QUEUE_ID',
      msg: 'Bad event queue ID: no-such-queue',
      queue_id: 'no-such-queue',
    });
  });

  it("gives the same error for another user's queue", async () => {
    const queueId = await register(t.as('member'));
    for (const who of ['moderator', 'owner'] as const) {
      const res = await t
        .as(who)
        .get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'BAD_EVENT_QUEUE_ID',
        msg: `Bad event queue ID: ${queueId}`,
        queue_id: queueId,
      });
      const del = await t.as(who).delete('/events', { queue_id: queueId });
      expect(del.status).toBe(400);
      expect(del.body.code).toBe('BAD_EVENT_QUEUE_ID');
    }
    // Still the member's.
    const mine = await t
      .as('member')
      .get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(mine.status).toBe(200);
  });

  it('needs queue_id and last_event_id (plain BAD_REQUEST, as in Zulip)', async () => {
    const res = await t.as('member').get('/events', { dont_block: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "Missing 'queue_id' argument",
    });
    const queueId = await register(t.as('member'));
    const noLast = await t.as('member').get('/events', { queue_id: queueId, dont_block: true });
    expect(noLast.status).toBe(400);
    expect(noLast.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "Missing 'last_event_id' argument",
    });
  });

  it('accepts last_event_id and dont_block as zulip-js sends them (strings in the query)', async () => {
    const member = t.as('member');
    const queueId = await register(member, { event_types: ['realm_user'] });
    await triggerEvent();
    const url = new URL(`${t.url}/api/v1/events`);
    url.searchParams.set('queue_id', queueId);
    url.searchParams.set('last_event_id', '-1');
    url.searchParams.set('dont_block', 'false');
    const res = await member.get('/events', Object.fromEntries(url.searchParams));
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([0]);
  });
});

describe('DELETE /events', () => {
  it('removes the queue (form body, as python sends it)', async () => {
    const member = t.as('member');
    const queueId = await register(member);
    const del = await member.delete('/events', { queue_id: queueId }, { encoding: 'form' });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ result: 'success', msg: '' });
    const res = await member.get('/events', {
      queue_id: queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
  });

  it('removes the queue (query string, as zulip-js sends it)', async () => {
    const member = t.as('member');
    const queueId = await register(member);
    const del = await member.delete('/events', { queue_id: queueId }, { encoding: 'query' });
    expect(del.status).toBe(200);
    const res = await member.get('/events', {
      queue_id: queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(res.body.code).toBe('BAD_EVENT_QUEUE_ID');
    // Deleting twice: the queue is gone.
    const again = await member.delete('/events', { queue_id: queueId }, { encoding: 'query' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 'BAD_EVENT_QUEUE_ID',
      msg: `Bad event queue ID: ${queueId}`,
    });
  });

  it('finishes a poll that is waiting on the deleted queue', async () => {
    const member = t.as('member');
    const queueId = await register(member, { event_types: ['typing'] });
    const poll = member.get('/events', { queue_id: queueId, last_event_id: -1 });
    await sleep(30);
    const started = Date.now();
    await member.delete('/events', { queue_id: queueId });
    const res = await poll;
    expect(Date.now() - started).toBeLessThan(HEARTBEAT_MS);
    expect(res.body.events).toEqual([]);
  });

  it('needs queue_id', async () => {
    // The reference documents only BAD_EVENT_QUEUE_ID for this endpoint.
    const res = await t.as('member').delete('/events', {}, { skipSchema: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'queue_id' });
  });
});
