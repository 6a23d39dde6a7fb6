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
