import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';

// A long-poll stops waiting when its client goes away, and only then: an
// answered poll must not pay for aborting (see the signal in http/app.ts).
describe('GET /events and the client going away', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
    return check();
  };

  it('a poll the client abandons stops waiting on its queue', async () => {
    const member = t.accounts.member;
    const registered = await t.as('member').post('/register', { event_types: ['message'] });
    const queue = t.server.ctx.events.get(registered.body.queue_id, member.id);
    const leaving = new AbortController();
    const url = new URL(`${t.url}/api/v1/events`);
    url.searchParams.set('queue_id', registered.body.queue_id);
    url.searchParams.set('last_event_id', '-1');
    const poll = fetch(url, {
      headers: { authorization: basicAuth(member.email, member.apiKey) },
      signal: leaving.signal,
    }).catch(() => 'abandoned');
    expect(await waitFor(() => queue.hasWaiter)).toBe(true);
    leaving.abort();
    expect(await poll).toBe('abandoned');
    expect(await waitFor(() => !queue.hasWaiter)).toBe(true);
  });

  it('a poll abandoned on a keep-alive connection that carried earlier polls stops waiting', async () => {
    const member = t.accounts.member;
    const registered = await t.as('member').post('/register', { event_types: ['message'] });
    const queue = t.server.ctx.events.get(registered.body.queue_id, member.id);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (extra: string) =>
      new Promise<http.ClientRequest>((resolve) => {
        const request = http.get(
          `${t.url}/api/v1/events?queue_id=${registered.body.queue_id}&last_event_id=-1${extra}`,
          { agent, headers: { authorization: basicAuth(member.email, member.apiKey) } },
          (response) => response.resume(),
        );
        request.on('socket', (socket) => sockets.add(socket));
        request.on('error', () => {});
        resolve(request);
      });
    // Three answered polls, then one that waits, all on one connection.
    for (let i = 0; i < 3; i++) {
      const answered = await get('&dont_block=true');
      await new Promise((r) => answered.on('response', (res) => res.on('end', r)));
    }
    const waiting = await get('');
    expect(await waitFor(() => queue.hasWaiter)).toBe(true);
    expect(sockets.size).toBe(1);
    waiting.destroy();
    expect(await waitFor(() => !queue.hasWaiter)).toBe(true);
    agent.destroy();
  });

  it('an answered poll leaves the queue ready for the next one', async () => {
    const registered = await t.as('member').post('/register', { event_types: ['message'] });
    const params = { queue_id: registered.body.queue_id, last_event_id: -1 };
    const first = t.as('member').get('/events', params);
    const queue = t.server.ctx.events.get(registered.body.queue_id, t.accounts.member.id);
    expect(await waitFor(() => queue.hasWaiter)).toBe(true);
    await t.as('owner').post('/messages', {
      type: 'direct',
      to: [t.accounts.member.id],
      content: 'wake up',
    });
    const answered = await first;
    expect(answered.body.events.map((e: { type: string }) => e.type)).toEqual(['message']);
    const second = await t
      .as('member')
      .get('/events', { ...params, last_event_id: answered.body.events[0].id, dont_block: true });
    expect(second.body.events).toEqual([]);
    expect(queue.hasWaiter).toBe(false);
  });
});
