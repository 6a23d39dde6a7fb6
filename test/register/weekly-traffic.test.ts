/**
 * stream_weekly_traffic counts are kept between requests and moved along
 * as messages arrive and the four-week window slides; deletions and moves
 * count afresh. Each step reads the traffic first, so the kept counts exist.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
let clock = Date.now();
let t: TestServer;
let busy: number;
let quiet: number;

beforeAll(async () => {
  t = await startTestServer({ now: () => clock });
  const member = t.accounts.member.id;
  busy = createChannel(t, { name: 'busy', subscribers: [member] });
  quiet = createChannel(t, { name: 'quiet', subscribers: [member] });
  t.server.ctx.db
    .prepare('UPDATE streams SET date_created = date_created - ? WHERE id IN (?, ?)')
    .run(60 * 86_400, busy, quiet);
});
afterAll(() => t.close());

async function traffic(): Promise<[number, number]> {
  const res = await t.as('member').post('/register', { fetch_event_types: ['subscription'] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const of = (id: number) =>
    res.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id)
      .stream_weekly_traffic;
  return [of(busy), of(quiet)];
}

async function send(to: string, topic: string): Promise<number> {
  const res = await t
    .as('member')
    .post('/messages', { type: 'stream', to, topic, content: 'hello' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

it('follows sends, deletions, moves and the passing weeks', async () => {
  expect(await traffic()).toEqual([0, 0]);
  const ids: number[] = [];
  for (let i = 0; i < 12; i++) ids.push(await send('busy', i < 4 ? 'moving' : 'staying'));
  expect(await traffic()).toEqual([3, 0]);

  for (const id of ids.slice(8)) {
    const res = await t.as('admin').delete(`/messages/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  expect(await traffic()).toEqual([2, 0]);

  const moved = await t
    .as('admin')
    .patch(`/messages/${ids[0]}`, { stream_id: quiet, propagate_mode: 'change_all' });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  expect(await traffic()).toEqual([1, 1]);

  clock += 29 * DAY;
  expect(await traffic()).toEqual([0, 0]);
  await send('quiet', 'later');
  for (let i = 0; i < 8; i++) await send('busy', 'later');
  expect(await traffic()).toEqual([2, 1]);
});
