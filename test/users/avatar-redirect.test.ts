/**
 * Zulip's /avatar/{email_or_id} and /avatar/{email_or_id}/medium
 * (zerver/views/users.py avatar, avatar_medium; zerver/tests/test_upload.py's
 * avatar tests): a 302 to the user's picture, found by id or by API e-mail,
 * deactivated users and bots included; the default picture (Gravatar off)
 * for no such user; the unknown-user picture for a user a guest may not see
 * (limited user access, test_users.py's inaccessible-user case).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userById } from '../../server/db/queries/users.js';
import { loadRealm } from '../../server/shared/realm.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import type { Account, FixtureName, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

let t: TestServer;
let ann: Account;
let hal: Account;
let emailDomain: string;

beforeAll(async () => {
  t = await startTestServer();
  ann = await quickMember(t, 'Ann Avatar');
  hal = await quickMember(t, 'Hal Hidden');
  createChannel(t, { name: 'guest room', subscribers: [t.accounts.guest.id, ann.id] });
  emailDomain = loadRealm(t.server.ctx).row.email_domain;
});
afterAll(() => t.close());

const version = (id: number) => userById(t.server.ctx.db, id)!.avatar_version;

async function redirectOf(who: FixtureName | Account, path: string): Promise<string> {
  const res = await t.as(who).fetch(path);
  expect(res.status, path).toBe(302);
  return res.headers.get('location') ?? '';
}

describe('GET /avatar/{email_or_id}', () => {
  it('sends anyone to the picture of a user by id, in either size', async () => {
    expect(await redirectOf('member', `/avatar/${ann.id}`)).toBe(
      `/user_avatars/${ann.id}.png?version=${version(ann.id)}`,
    );
    expect(await redirectOf('guest', `/avatar/${ann.id}/medium`)).toBe(
      `/user_avatars/${ann.id}-medium.png?version=${version(ann.id)}`,
    );
  });

  it('finds users by API e-mail in any case, and bots', async () => {
    const upper = ann.email.toUpperCase();
    expect(await redirectOf('member', `/avatar/${encodeURIComponent(upper)}`)).toBe(
      `/user_avatars/${ann.id}.png?version=${version(ann.id)}`,
    );
    const bot = t.accounts.bot;
    expect(await redirectOf('member', `/avatar/${bot.id}`)).toBe(
      `/user_avatars/${bot.id}.png?version=${version(bot.id)}`,
    );
  });

  it('finds deactivated users too', async () => {
    const gone = await quickMember(t, 'Gil Gone');
    expect((await t.as('admin').delete(`/users/${gone.id}`)).status).toBe(200);
    expect(await redirectOf('member', `/avatar/${gone.id}`)).toBe(
      `/user_avatars/${gone.id}.png?version=${version(gone.id)}`,
    );
  });

  it('sends an unknown id or address to the default picture, which is served', async () => {
    expect(await redirectOf('member', '/avatar/999999')).toBe(
      '/static/images/default-avatar.png?version=1',
    );
    expect(await redirectOf('member', '/avatar/nobody@example.com/medium')).toBe(
      '/static/images/default-avatar.png?version=1',
    );
    const picture = await t.anonymous().fetch('/static/images/default-avatar.png?version=1');
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
  });

  it('finds nobody by a real address hidden behind a made-up one', async () => {
    const owner = await t.as('owner').patch('/settings', { email_address_visibility: 5 });
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    try {
      const real = t.accounts.owner.email;
      expect(await redirectOf('member', `/avatar/${encodeURIComponent(real)}`)).toBe(
        '/static/images/default-avatar.png?version=1',
      );
      const madeUp = `user${t.accounts.owner.id}@${emailDomain}`;
      expect(await redirectOf('member', `/avatar/${encodeURIComponent(madeUp)}`)).toBe(
        `/user_avatars/${t.accounts.owner.id}.png?version=${version(t.accounts.owner.id)}`,
      );
    } finally {
      await t.as('owner').patch('/settings', { email_address_visibility: 1 });
    }
  });

  it('asks for credentials', async () => {
    const res = await t.anonymous().fetch(`/avatar/${ann.id}`);
    expect(res.status).toBe(401);
  });

  it('sends a guest to the unknown-user picture for users they may not see', async () => {
    const members = (await t.as('owner').get('/user_groups')).body.user_groups.find(
      (g: { name: string }) => g.name === 'role:members',
    ).id;
    const set = (id: number) =>
      t.as('owner').patch('/realm', { can_access_all_users_group: { new: id } });
    expect((await set(members)).status).toBe(200);
    try {
      for (const path of [`/avatar/${hal.id}`, `/avatar/${hal.id}/medium`]) {
        expect(await redirectOf('guest', path)).toBe('/static/images/unknown-user-avatar.png');
      }
      expect(await redirectOf('guest', `/avatar/${encodeURIComponent(hal.email)}`)).toBe(
        '/static/images/unknown-user-avatar.png',
      );
      // Those they share a channel with, and everyone for members.
      expect(await redirectOf('guest', `/avatar/${ann.id}`)).toBe(
        `/user_avatars/${ann.id}.png?version=${version(ann.id)}`,
      );
      expect(await redirectOf('member', `/avatar/${hal.id}`)).toBe(
        `/user_avatars/${hal.id}.png?version=${version(hal.id)}`,
      );
    } finally {
      const everyone = (await t.as('owner').get('/user_groups')).body.user_groups.find(
        (g: { name: string }) => g.name === 'role:everyone',
      ).id;
      await set(everyone);
    }
  });
});
