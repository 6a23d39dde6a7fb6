/**
 * Who may see, join and post in public, private and web-public channels,
 * guests included, and how the channel's groups widen that.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupByName } from '../../server/db/queries/user-groups.js';
import { expectError } from '../api/support.js';
import { createChannel } from '../helpers/fixtures.js';
import { type FixtureName, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestServer();
  const { admin } = t.accounts;
  ids.public = createChannel(t, { name: 'town square', subscribers: [admin.id] });
  ids.private = createChannel(t, { name: 'back office', private: true, subscribers: [admin.id] });
  ids.web = createChannel(t, { name: 'shop window', webPublic: true, subscribers: [admin.id] });
});
afterAll(() => t.close());

const join = (who: FixtureName, name: string) =>
  t.as(who).post('/users/me/subscriptions', { subscriptions: [{ name }] });
const post = (who: FixtureName, to: string) =>
  t.as(who).post('/messages', { type: 'stream', to, topic: 'access', content: 'hello' });
const sees = async (who: FixtureName, id: number) =>
  (await t.as(who).get(`/streams/${id}`)).status === 200;

describe('seeing', () => {
  it('public channels: everyone but guests; private: subscribers and administrators; web-public: all', async () => {
    expect(await sees('member', ids.public!)).toBe(true);
    expect(await sees('guest', ids.public!)).toBe(false);
    expect(await sees('member', ids.private!)).toBe(false);
    expect(await sees('owner', ids.private!)).toBe(true);
    expect(await sees('guest', ids.web!)).toBe(true);
  });
});

describe('posting', () => {
  it('members post to public channels without joining; guests only where subscribed or web-public', async () => {
    expect((await post('member', 'town square')).status).toBe(200);
    expectError(
      await post('guest', 'town square'),
      400,
      'BAD_REQUEST',
      "Not authorized to send to channel 'town square'",
    );
    expect((await post('guest', 'shop window')).status).toBe(200);
    expectError(
      await post('member', 'back office'),
      400,
      'BAD_REQUEST',
      "Not authorized to send to channel 'back office'",
    );
    expect((await post('admin', 'back office')).status).toBe(200);
  });
});

describe('joining', () => {
  it('members join public channels; private ones need an invitation or the subscribe group', async () => {
    expect((await join('moderator', 'town square')).status).toBe(200);
    expectError(
      await join('moderator', 'back office'),
      400,
      'BAD_REQUEST',
      'Unable to access channel (back office).',
    );
    const patched = await t.as('admin').patch(`/streams/${ids.private}`, {
      can_subscribe_group: { new: groupByName(t.server.ctx.db, 'role:moderators')!.id },
    });
    expect(patched.status).toBe(200);
    // The group also lets its members see the channel before joining.
    expect(await sees('moderator', ids.private!)).toBe(true);
    expect((await join('moderator', 'back office')).status).toBe(200);
    expect(await sees('member', ids.private!)).toBe(false);
  });

  it('guests cannot join, not even web-public channels; an administrator can add them', async () => {
    expectError(
      await join('guest', 'shop window'),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    const added = await t.as('admin').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'town square' }],
      principals: [t.accounts.guest.id],
    });
    expect(added.status).toBe(200);
    expect(await sees('guest', ids.public!)).toBe(true);
    expect((await post('guest', 'town square')).status).toBe(200);
  });
});
