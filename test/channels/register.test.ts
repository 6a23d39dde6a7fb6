/**
 * POST /register channel state: `subscriptions`, `unsubscribed` and
 * `never_subscribed` (fetch type "subscription") and `streams` ("stream"),
 * including what zulip-terminal reads and archived channels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStreamArchived } from '../../server/db/queries/streams.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let other: Account;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestServer();
  other = await quickMember(t, 'Otto Other');
  const { member, guest, admin } = t.accounts;
  ids.kitchen = createChannel(t, { name: 'kitchen', subscribers: [member.id, guest.id] });
  ids.Attic = createChannel(t, { name: 'Attic', subscribers: [member.id] });
  ids.porch = createChannel(t, { name: 'porch', subscribers: [other.id] });
  ids.left = createChannel(t, { name: 'left behind', subscribers: [member.id, guest.id] });
  ids.leftPrivate = createChannel(t, {
    name: 'left private',
    private: true,
    subscribers: [member.id, admin.id],
  });
  ids.safe = createChannel(t, { name: 'safe', private: true, subscribers: [admin.id] });
  ids.web = createChannel(t, { name: 'web', webPublic: true, subscribers: [] });
  ids.cellar = createChannel(t, { name: 'cellar', subscribers: [member.id] });
  setStreamArchived(t.server.ctx.db, ids.cellar!, true);
  for (const who of ['member', 'guest'] as const) {
    await t.as(who).delete('/users/me/subscriptions', { subscriptions: ['left behind'] });
  }
  await t.as('member').delete('/users/me/subscriptions', { subscriptions: ['left private'] });
});
afterAll(() => t.close());

async function register(
  who: 'member' | 'guest' | 'admin',
  params: Record<string, unknown> = {},
  // biome-ignore lint/suspicious/noExplicitAny: register state is arbitrary JSON
): Promise<any> {
  const res = await t.as(who).post('/register', {
    fetch_event_types: ['subscription', 'stream'],
    ...params,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const names = (list: Array<{ name: string }>) => list.map((s) => s.name);

describe('subscriptions, unsubscribed, never_subscribed', () => {
  it('splits the channels a member may see, each list sorted by name', async () => {
    const state = await register('member', { include_subscribers: 'true' });
    expect(names(state.subscriptions)).toEqual(['Attic', 'kitchen']);
    // A former private channel is no longer visible to a member.
    expect(names(state.unsubscribed)).toEqual(['left behind']);
    expect(names(state.never_subscribed)).toEqual(['porch', 'web']);
  });

  it('has every field zulip-terminal reads, with subscribers when asked', async () => {
    const state = await register('member', { include_subscribers: 'true' });
    const kitchen = state.subscriptions.find((s: { name: string }) => s.name === 'kitchen');
    expect(kitchen).toMatchObject({
      stream_id: ids.kitchen,
      name: 'kitchen',
      description: 'About kitchen',
      rendered_description: '<p>About kitchen</p>',
      invite_only: false,
      is_web_public: false,
      pin_to_top: false,
      is_muted: false,
      in_home_view: true,
      desktop_notifications: null,
      message_retention_days: null,
      history_public_to_subscribers: true,
      stream_weekly_traffic: null,
      stream_post_policy: 1,
      subscribers: [t.accounts.member.id, t.accounts.guest.id].sort((a, b) => a - b),
    });
    expect(kitchen.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(Number.isInteger(kitchen.date_created)).toBe(true);
    expect(state.unsubscribed[0].subscribers).toEqual([]);
    expect(
      state.never_subscribed.find((s: { name: string }) => s.name === 'porch').subscribers,
    ).toEqual([other.id]);
  });

  it('leaves subscribers out unless asked', async () => {
    const state = await register('member');
    for (const list of [state.subscriptions, state.unsubscribed, state.never_subscribed]) {
      for (const sub of list) expect(sub).not.toHaveProperty('subscribers');
    }
  });

  it('shows administrators every private channel', async () => {
    const state = await register('admin');
    expect(names(state.subscriptions)).toEqual(['left private', 'safe']);
    expect(names(state.never_subscribed)).toEqual([
      'Attic',
      'kitchen',
      'left behind',
      'porch',
      'web',
    ]);
  });

  it('shows guests their channels and the web-public ones only', async () => {
    const state = await register('guest');
    expect(names(state.subscriptions)).toEqual(['kitchen']);
    expect(names(state.unsubscribed)).toEqual([]);
    expect(names(state.never_subscribed)).toEqual(['web']);
  });

  it('includes archived channels only for clients that can show them', async () => {
    let state = await register('member');
    expect(names(state.subscriptions)).not.toContain('cellar');
    state = await register('member', { client_capabilities: { archived_channels: true } });
    const cellar = state.subscriptions.find((s: { name: string }) => s.name === 'cellar');
    expect(cellar.is_archived).toBe(true);
  });

  it('is what GET /users/me/subscriptions returns', async () => {
    const state = await register('member', { include_subscribers: 'true' });
    const res = await t
      .as('member')
      .get('/users/me/subscriptions', { include_subscribers: 'true' });
    expect(res.body.subscriptions).toEqual(state.subscriptions);
  });
});

describe('streams', () => {
  it('is GET /streams with web-public channels', async () => {
    const state = await register('member');
    expect(names(state.streams)).toEqual(['Attic', 'kitchen', 'left behind', 'porch', 'web']);
    const res = await t.as('member').get('/streams', { include_web_public: true });
    expect(state.streams).toEqual(res.body.streams);
  });

  it('has every channel for administrators, and fewer for guests', async () => {
    expect(names((await register('admin')).streams)).toEqual([
      'Attic',
      'kitchen',
      'left behind',
      'left private',
      'porch',
      'safe',
      'web',
    ]);
    expect(names((await register('guest')).streams)).toEqual(['kitchen', 'web']);
  });

  it('includes archived channels only with the capability', async () => {
    const state = await register('member', { client_capabilities: { archived_channels: true } });
    expect(names(state.streams)).toContain('cellar');
  });

  it('comes with the "stream" fetch type only', async () => {
    const state = await register('member', { fetch_event_types: ['subscription'] });
    expect(state).toHaveProperty('subscriptions');
    expect(state).not.toHaveProperty('streams');
    const streamsOnly = await register('member', { fetch_event_types: ['stream'] });
    expect(streamsOnly).toHaveProperty('streams');
    expect(streamsOnly).not.toHaveProperty('subscriptions');
  });
});

describe('stream_weekly_traffic', () => {
  it('averages the last four weeks for channels at least a week old', async () => {
    const month = 30 * 86_400;
    const old = createChannel(t, { name: 'busy', subscribers: [t.accounts.member.id] });
    const young = createChannel(t, { name: 'new', subscribers: [t.accounts.member.id] });
    t.server.ctx.db
      .prepare('UPDATE streams SET date_created = date_created - ? WHERE id = ?')
      .run(month, old);
    const send = (to: string) =>
      t.as('member').post('/messages', { type: 'stream', to, topic: 'x', content: 'y' });
    const traffic = async (id: number) => {
      const res = await t.as('member').get(`/streams/${id}`);
      return res.body.stream.stream_weekly_traffic;
    };
    expect(await traffic(old)).toBe(0);
    await send('busy');
    // Any traffic at all shows as at least 1.
    expect(await traffic(old)).toBe(1);
    for (let i = 0; i < 8; i++) await send('busy');
    expect(await traffic(old)).toBe(2);
    await send('new');
    expect(await traffic(young)).toBeNull();
  });
});
