/**
 * The channel and subscriber events that a user's deactivation,
 * reactivation or change of role sends: who hears of it and what appears or
 * disappears for the user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../server/shared/roles.js';
import { isEvent, receivers, type Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';
import { channelWatchers } from './support.js';

/*
 * Subscriber lists leave out deactivated users, so clients holding those
 * lists must hear when a subscriber is deactivated or comes back (Zulip's
 * do_deactivate_user / do_reactivate_user send peer_remove / peer_add),
 * and only the users who may see each channel's subscribers may hear it.
 */

let t: TestServer;
let watchers: Watchers;
let leaver: Account;
let publicId = 0;
let privateId = 0;

beforeAll(async () => {
  t = await startTestServer();
  leaver = await t.createMember('Lee Leaver', Role.member);
  publicId = createChannel(t, {
    name: 'lobby',
    subscribers: [t.accounts.member.id, leaver.id],
  });
  privateId = createChannel(t, {
    name: 'back room',
    private: true,
    subscribers: [t.accounts.moderator.id, leaver.id],
  });
  watchers = channelWatchers(t);
  for (const name of ['owner', 'moderator', 'member', 'guest'] as const) await watchers.add(name);
});
afterAll(() => t.close());

const peer = (op: string, streamId: number, userId: number) =>
  isEvent(
    'subscription',
    op,
    (e) => e.stream_ids.includes(streamId) && e.user_ids.includes(userId),
  );

describe('deactivating and reactivating a subscriber', () => {
  it('sends peer_remove for each of their channels to those who see its subscribers', async () => {
    await watchers.clear();
    const res = await t.as('owner').delete(`/users/${leaver.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = await watchers.take();
    // The guest sees neither channel; the member does not see the private one.
    expect(receivers(events, peer('peer_remove', publicId, leaver.id))).toEqual([
      'member',
      'moderator',
      'owner',
    ]);
    expect(receivers(events, peer('peer_remove', privateId, leaver.id))).toEqual([
      'moderator',
      'owner',
    ]);
  });

  it('sends peer_add for each of their channels when they come back', async () => {
    await watchers.clear();
    const res = await t.as('owner').post(`/users/${leaver.id}/reactivate`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = await watchers.take();
    expect(receivers(events, peer('peer_add', publicId, leaver.id))).toEqual([
      'member',
      'moderator',
      'owner',
    ]);
    expect(receivers(events, peer('peer_add', privateId, leaver.id))).toEqual([
      'moderator',
      'owner',
    ]);
    const members = await t.as('moderator').get(`/streams/${privateId}/members`);
    expect(members.body.subscribers).toContain(leaver.id);
  });
});

/*
 * A role decides which channels a user may see (administrators see private
 * channels, guests only their own). Zulip's do_change_user_role tells the
 * user about channels gained (create + their subscribers) and lost (delete).
 */
describe('changing a role', () => {
  let changer: Account;
  let quietId = 0;
  beforeAll(async () => {
    changer = await t.createMember('Cam Changer', Role.member);
    quietId = createChannel(t, { name: 'quiet', subscribers: [t.accounts.member.id] });
    await watchers.add('changer', changer);
  });

  it('to administrator: the private channels appear, with their subscribers', async () => {
    await watchers.clear();
    const res = await t.as('owner').patch(`/users/${changer.id}`, { role: Role.administrator });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = await watchers.take();
    const created = (events.changer ?? []).find(
      (e) => e.type === 'stream' && e.op === 'create' && e.streams[0].stream_id === privateId,
    );
    expect(created?.streams[0].name).toBe('back room');
    expect(receivers(events, isEvent('stream', 'create'))).toEqual(['changer']);
    expect(receivers(events, peer('peer_add', privateId, t.accounts.moderator.id))).toEqual([
      'changer',
    ]);
    // Public channels were visible already.
    expect(
      (events.changer ?? []).some(
        (e) =>
          e.type === 'stream' &&
          e.streams?.some((s: { stream_id: number }) => s.stream_id === quietId),
      ),
    ).toBe(false);
  });

  it('to guest: every channel they are not subscribed to disappears', async () => {
    await watchers.clear();
    const res = await t.as('owner').patch(`/users/${changer.id}`, { role: Role.guest });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = await watchers.take();
    const gone = (events.changer ?? [])
      .filter((e) => e.type === 'stream' && e.op === 'delete')
      .flatMap((e) => e.stream_ids);
    expect(gone).toEqual(expect.arrayContaining([privateId, publicId, quietId]));
    expect(receivers(events, isEvent('stream', 'delete'))).toEqual(['changer']);
  });

  it('from guest back to member: public channels reappear, private ones do not', async () => {
    await watchers.clear();
    const res = await t.as('owner').patch(`/users/${changer.id}`, { role: Role.member });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = await watchers.take();
    const created = (events.changer ?? [])
      .filter((e) => e.type === 'stream' && e.op === 'create')
      .flatMap((e) => e.streams.map((s: { stream_id: number }) => s.stream_id));
    expect(created).toEqual(expect.arrayContaining([publicId, quietId]));
    expect(created).not.toContain(privateId);
  });
});
