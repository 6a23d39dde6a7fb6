import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Watchers } from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { FakeClock } from '../messages/send-support.js';

let t: TestServer;
const clock = new FakeClock();
const nowSeconds = () => Math.floor(clock.ms / 1000);
let watchers: Watchers;
let general: number;
let gone: Account;

beforeAll(async () => {
  t = await startTestServer({ now: clock.now, scheduledDelivery: false });
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.guest.id],
  });
  gone = await quickMember(t, 'Gone Person');
  expect((await t.as('admin').delete(`/users/${gone.id}`)).status).toBe(200);
  watchers = new Watchers(t);
  await watchers.add('member', 'member', { event_types: ['muted_users'] });
  await watchers.add('member:2', 'member');
  await watchers.add('member:messages-only', 'member', { event_types: ['message'] });
  await watchers.add('owner', 'owner');
});
afterAll(() => t.close());

beforeEach(async () => {
  t.server.ctx.db.prepare('DELETE FROM muted_users').run();
  await watchers.clear();
});

const mute = (id: number, who: FixtureName = 'member') =>
  t.as(who).post(`/users/me/muted_users/${id}`);
const unmute = (id: number, who: FixtureName = 'member') =>
  t.as(who).delete(`/users/me/muted_users/${id}`);

async function expectError(
  res: Promise<{ status: number; body: Record<string, unknown> }>,
  msg: string,
): Promise<void> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
}

async function registered(who: FixtureName = 'member'): Promise<unknown> {
  const res = await t.as(who).post('/register', { fetch_event_types: ['muted_users'] });
  expect(res.status).toBe(200);
  return res.body.muted_users;
}

async function flagsOf(who: FixtureName, messageId: number): Promise<string[]> {
  const res = await t.as(who).get('/messages', { anchor: messageId, num_before: 0, num_after: 0 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages[0].flags as string[];
}

describe('POST /users/me/muted_users/{id}', () => {
  it('mutes, with the whole list to every queue of the user only', async () => {
    const admin = t.accounts.admin.id;
    expect((await mute(admin)).status).toBe(200);
    const first = { id: admin, timestamp: nowSeconds() };
    clock.advance(30);
    expect((await mute(t.accounts.owner.id)).status).toBe(200);
    const second = { id: t.accounts.owner.id, timestamp: nowSeconds() };
    const both = [first, second].sort((x, y) => x.id - y.id);
    const events = await watchers.take();
    const event = (list: unknown[]) => ({
      id: expect.any(Number),
      type: 'muted_users',
      muted_users: list,
    });
    expect(events.member).toEqual([event([first]), event(both)]);
    expect(events['member:2']).toEqual([event([first]), event(both)]);
    expect(events['member:messages-only']).toEqual([]);
    expect(events.owner).toEqual([]);
    expect(await registered()).toEqual(both);
    expect(await registered('owner')).toEqual([]);
  });

  it('allows bots and deactivated users', async () => {
    expect((await mute(t.accounts.bot.id)).status).toBe(200);
    expect((await mute(gone.id)).status).toBe(200);
    expect(
      ((await registered()) as { id: number }[]).map((m) => m.id).sort((a, b) => a - b),
    ).toEqual([t.accounts.bot.id, gone.id].sort((a, b) => a - b));
  });

  it('refuses self, unknown users and users already muted, changing nothing', async () => {
    await expectError(mute(t.accounts.member.id), 'Cannot mute self');
    await expectError(mute(999_999), 'No such user');
    expect((await mute(t.accounts.admin.id)).status).toBe(200);
    await watchers.clear();
    await expectError(mute(t.accounts.admin.id), 'User already muted');
    expect((await watchers.take()).member).toEqual([]);
    expect(await registered()).toEqual([{ id: t.accounts.admin.id, timestamp: nowSeconds() }]);
  });

  it("marks the muted user's unread messages read, with a flags event", async () => {
    const channelMessage = await sendToChannel(t, 'admin', general, 'mute', 'hello');
    const direct = await sendDirect(t, 'admin', [t.accounts.member.id], 'psst');
    const fromOwner = await sendToChannel(t, 'owner', general, 'mute', 'other');
    expect(await flagsOf('member', channelMessage)).not.toContain('read');
    await watchers.clear();
    expect((await mute(t.accounts.admin.id)).status).toBe(200);
    expect(await flagsOf('member', channelMessage)).toContain('read');
    expect(await flagsOf('member', direct)).toContain('read');
    expect(await flagsOf('member', fromOwner)).not.toContain('read');
    // The guest did not mute anyone: still unread for them.
    expect(await flagsOf('guest', channelMessage)).not.toContain('read');
    const events = await watchers.take('update_message_flags');
    expect(events['member:2']).toEqual([
      expect.objectContaining({
        type: 'update_message_flags',
        op: 'add',
        flag: 'read',
        messages: [channelMessage, direct].sort((a, b) => a - b),
      }),
    ]);
    expect(events.owner).toEqual([]);
    // Later messages from them arrive read.
    const later = await sendToChannel(t, 'admin', general, 'mute', 'again');
    expect(await flagsOf('member', later)).toContain('read');
  });
});

describe('DELETE /users/me/muted_users/{id}', () => {
  it('unmutes and sends the new list; read messages stay read', async () => {
    await mute(t.accounts.admin.id);
    await mute(t.accounts.owner.id);
    const read = await sendToChannel(t, 'admin', general, 'mute', 'muted');
    await watchers.clear();
    expect((await unmute(t.accounts.admin.id)).status).toBe(200);
    const remaining = [{ id: t.accounts.owner.id, timestamp: nowSeconds() }];
    const events = await watchers.take();
    expect(events.member).toEqual([
      { id: expect.any(Number), type: 'muted_users', muted_users: remaining },
    ]);
    expect(events['member:2']).toHaveLength(1);
    expect(events.owner).toEqual([]);
    expect(await registered()).toEqual(remaining);
    expect(await flagsOf('member', read)).toContain('read');
    const after = await sendToChannel(t, 'admin', general, 'mute', 'unmuted');
    expect(await flagsOf('member', after)).not.toContain('read');
  });

  it('refuses users not muted and unknown users', async () => {
    await expectError(unmute(t.accounts.admin.id), 'User is not muted');
    await expectError(unmute(t.accounts.member.id), 'User is not muted');
    await expectError(unmute(999_999), 'No such user');
    await mute(t.accounts.admin.id, 'owner');
    await expectError(unmute(t.accounts.admin.id), 'User is not muted');
    expect(await registered('owner')).toHaveLength(1);
  });

  it('works for deactivated users too', async () => {
    await mute(gone.id);
    expect((await unmute(gone.id)).status).toBe(200);
    expect(await registered()).toEqual([]);
  });
});
