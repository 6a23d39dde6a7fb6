import { afterAll, beforeAll, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/*
 * Which channels a reader reaches is kept between reads (narrow/resolve.ts):
 * every change of subscription, channel or role must show in the very next
 * read, with reads in between that would have kept a stale answer.
 */

let t: TestServer;
let vault: number;
let square: number;

const searchIds = async (word: string, narrow: unknown[] = []) => {
  const res = await t.as('member').get('/messages', {
    anchor: 'newest',
    num_before: 10,
    num_after: 0,
    narrow: [...narrow, { operator: 'search', operand: word }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages.map((m: { id: number }) => m.id) as number[];
};

beforeAll(async () => {
  t = await startTestServer();
  const { owner } = t.accounts;
  vault = createChannel(t, {
    name: 'vault',
    private: true,
    historyPublic: true,
    subscribers: [owner.id],
  });
  square = createChannel(t, { name: 'square', subscribers: [owner.id] });
});
afterAll(() => t.close());

it('a private channel joins the reach when the reader is subscribed, and leaves it after', async () => {
  const id = await sendToChannel(t, 'owner', vault, 'gold', 'hidden treasure');
  const inVault = async () => {
    const res = await t.as('member').get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: vault },
        { operator: 'search', operand: 'treasure' },
      ],
    });
    return { status: res.status, ids: res.body.messages?.map((m: { id: number }) => m.id) };
  };
  expect((await inVault()).status).toBe(400);

  const add = await t.as('owner').post('/users/me/subscriptions', {
    subscriptions: [{ name: 'vault' }],
    principals: [t.accounts.member.id],
  });
  expect(add.status, JSON.stringify(add.body)).toBe(200);
  expect(await inVault()).toEqual({ status: 200, ids: [id] });

  const remove = await t.as('member').delete('/users/me/subscriptions', {
    subscriptions: ['vault'],
  });
  expect(remove.status, JSON.stringify(remove.body)).toBe(200);
  expect((await inVault()).status).toBe(400);
});

const PUBLIC = [{ operator: 'channels', operand: 'public' }];

it('a public channel leaves the reach of a reader made a guest, and comes back', async () => {
  // Not subscribed: only channels:public brings in the channel's history.
  const id = await sendToChannel(t, 'owner', square, 'news', 'town crier');
  expect(await searchIds('crier', PUBLIC)).toEqual([id]);

  const member = t.accounts.member.id;
  expect((await t.as('owner').patch(`/users/${member}`, { role: 600 })).status).toBe(200);
  expect(await searchIds('crier', PUBLIC)).toEqual([]);

  expect((await t.as('owner').patch(`/users/${member}`, { role: 400 })).status).toBe(200);
  expect(await searchIds('crier', PUBLIC)).toEqual([id]);
});

it('a channel made private leaves the reach of readers not subscribed', async () => {
  const id = await sendToChannel(t, 'owner', square, 'news', 'market bell');
  expect(await searchIds('bell', PUBLIC)).toEqual([id]);

  const res = await t.as('owner').patch(`/streams/${square}`, { is_private: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(await searchIds('bell', PUBLIC)).toEqual([]);
});
