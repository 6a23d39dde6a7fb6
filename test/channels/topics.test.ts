/**
 * GET /users/me/{stream_id}/topics: newest first, case-insensitive grouping,
 * the empty topic, and protected history limited to what the user received
 * (subscription periods).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStreamArchived } from '../../server/db/queries/streams.js';
import { expectError } from '../api/support.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let other: Account;

beforeAll(async () => {
  t = await startTestServer();
  other = await quickMember(t, 'Otto Other');
});
afterAll(() => t.close());

const send = (who: 'member' | 'admin' | Account, to: string, topic: string) =>
  sendToChannel(t, who, to, topic, 'hi');

const topics = async (who: 'member' | 'admin' | 'guest' | Account, id: number, params = {}) => {
  const res = await t.as(who).get(`/users/me/${id}/topics`, params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.topics;
};

describe('a public channel', () => {
  let id: number;
  const sent: number[] = [];
  beforeAll(async () => {
    id = createChannel(t, { name: 'diner', subscribers: [t.accounts.member.id] });
    sent.push(await send('member', 'diner', 'Lunch'));
    sent.push(await send('member', 'diner', 'Dinner'));
    sent.push(await send('member', 'diner', 'lunch'));
    sent.push(await send('member', 'diner', ''));
  });

  it('lists topics newest first, grouping spellings under the latest one', async () => {
    expect(await topics('member', id, { allow_empty_topic_name: true })).toEqual([
      { name: '', max_id: sent[3] },
      { name: 'lunch', max_id: sent[2] },
      { name: 'Dinner', max_id: sent[1] },
    ]);
  });

  it("shows the empty topic by the organization's display name unless the client allows it", async () => {
    const list = await topics('member', id);
    expect(list[0]).toEqual({ name: 'general chat', max_id: sent[3] });
  });

  it('is open to every member, subscribed or not, but not to guests', async () => {
    expect(await topics(other, id)).toHaveLength(3);
    expectError(
      await t.as('guest').get(`/users/me/${id}/topics`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });
});

describe('a private channel with protected history', () => {
  let id: number;
  beforeAll(async () => {
    id = createChannel(t, {
      name: 'vault',
      private: true,
      historyPublic: false,
      subscribers: [t.accounts.member.id],
    });
    await send('member', 'vault', 'before');
    const added = await t.as('member').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'vault' }],
      principals: [other.id],
    });
    expect(added.status).toBe(200);
    await send('member', 'vault', 'after');
  });

  it('shows a late subscriber only the topics of messages they received', async () => {
    expect((await topics('member', id)).map((t: { name: string }) => t.name)).toEqual([
      'after',
      'before',
    ]);
    expect((await topics(other, id)).map((t: { name: string }) => t.name)).toEqual(['after']);
  });

  it('leaves out what was sent while they were away, and picks up again on return', async () => {
    await t.as(other).delete('/users/me/subscriptions', { subscriptions: ['vault'] });
    await send('member', 'vault', 'gap');
    // Leaving and coming back with nothing sent in between reopens the same period.
    await t.as('member').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'vault' }],
      principals: [other.id],
    });
    await t.as(other).delete('/users/me/subscriptions', { subscriptions: ['vault'] });
    await t.as('member').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'vault' }],
      principals: [other.id],
    });
    await send('member', 'vault', 'back');
    expect((await topics(other, id)).map((t: { name: string }) => t.name)).toEqual([
      'back',
      'after',
    ]);
  });

  it('is hidden from non-subscribers, administrators included', async () => {
    for (const who of ['admin', 'guest'] as const) {
      expectError(
        await t.as(who).get(`/users/me/${id}/topics`),
        400,
        'BAD_REQUEST',
        'Invalid channel ID',
      );
    }
  });
});

describe('other channels', () => {
  it('a private channel with shared history shows everything to a late subscriber', async () => {
    const id = createChannel(t, {
      name: 'club',
      private: true,
      historyPublic: true,
      subscribers: [t.accounts.member.id],
    });
    await send('member', 'club', 'old news');
    await t.as('member').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'club' }],
      principals: [other.id],
    });
    expect((await topics(other, id)).map((t: { name: string }) => t.name)).toEqual(['old news']);
  });

  it('a web-public channel is open to guests; an archived one to nobody', async () => {
    const web = createChannel(t, {
      name: 'web',
      webPublic: true,
      subscribers: [t.accounts.member.id],
    });
    await send('member', 'web', 'hello world');
    expect(await topics('guest', web)).toHaveLength(1);
    setStreamArchived(t.server.ctx.db, web, true);
    expectError(
      await t.as('member').get(`/users/me/${web}/topics`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });

  it('a channel without messages has no topics', async () => {
    const id = createChannel(t, { name: 'quiet', subscribers: [] });
    expect(await topics('member', id)).toEqual([]);
  });
});
