/**
 * Only owners make owners, and administrators cannot demote (or otherwise
 * touch the role of) owners: PATCH /users/{id} and PATCH /bots/{id} alike.
 * Bots with the owner role never count as the organization's last owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../server/shared/roles.js';
import { expectError } from '../api/support.js';
import { quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import {
  ADMIN_REQUIRED,
  deactivatedMember,
  expectUserDeactivated,
  makeBot,
  NOT_BOT,
  OWNER_REQUIRED,
} from './support.js';

let t: TestServer;
/** A second owner, so that demoting owners is possible at all. */
let coOwner: Account;

beforeAll(async () => {
  t = await startTestServer();
  coOwner = await quickMember(t, 'Cora Co-Owner', Role.owner);
});
afterAll(() => t.close());

const roleOf = async (id: number) => (await t.as('owner').get(`/users/${id}`)).body.user.role;

describe('PATCH /users/{id}: owner role', () => {
  it.each(['moderator', 'member', 'guest', 'bot'] as FixtureName[])(
    '%s can neither grant nor remove it',
    async (who) => {
      const target = await quickMember(t, `Target Of ${who}`);
      for (const [id, role] of [
        [target.id, Role.owner],
        [coOwner.id, Role.member],
      ] as const) {
        expectError(
          await t.as(who).patch(`/users/${id}`, { role }),
          400,
          'UNAUTHORIZED_PRINCIPAL',
          // PATCH /users/{id} is for administrators before anything else.
          ADMIN_REQUIRED,
        );
      }
      expect(await roleOf(target.id)).toBe(Role.member);
      expect(await roleOf(coOwner.id)).toBe(Role.owner);
    },
  );

  it('a deactivated account is refused before anything', async () => {
    const gone = await deactivatedMember(t, 'Gone Admin');
    expectUserDeactivated(await t.as(gone).patch(`/users/${coOwner.id}`, { role: Role.member }));
  });

  it('administrators may not grant it, demote an owner, or promote one to it', async () => {
    const target = await quickMember(t, 'Hopeful Owner');
    for (const [id, role] of [
      [target.id, Role.owner],
      [coOwner.id, Role.administrator],
      [coOwner.id, Role.member],
      [coOwner.id, Role.guest],
      [t.accounts.admin.id, Role.owner],
    ] as const) {
      expectError(
        await t.as('admin').patch(`/users/${id}`, { role }),
        400,
        'UNAUTHORIZED_PRINCIPAL',
        OWNER_REQUIRED,
      );
    }
    expect(await roleOf(coOwner.id)).toBe(Role.owner);
    expect(await roleOf(t.accounts.admin.id)).toBe(Role.administrator);
    // Naming an owner's current role is no change, so no refusal.
    expect((await t.as('admin').patch(`/users/${coOwner.id}`, { role: Role.owner })).status).toBe(
      200,
    );
    // Non-owner roles are theirs to give.
    expect(
      (await t.as('admin').patch(`/users/${target.id}`, { role: Role.moderator })).status,
    ).toBe(200);
  });

  it('owners make owners and demote them, never the last one', async () => {
    const target = await quickMember(t, 'Made Owner');
    expect((await t.as(coOwner).patch(`/users/${target.id}`, { role: Role.owner })).status).toBe(
      200,
    );
    expect(await roleOf(target.id)).toBe(Role.owner);
    expect((await t.as('owner').patch(`/users/${target.id}`, { role: Role.member })).status).toBe(
      200,
    );
    expect(
      (await t.as('owner').patch(`/users/${coOwner.id}`, { role: Role.administrator })).status,
    ).toBe(200);
    // An owner bot does not make the remaining person any less the last owner.
    const ownerBot = await makeBot(t, 'owner', 'Owner Role Bot');
    expect((await t.as('owner').patch(`/users/${ownerBot.id}`, { role: Role.owner })).status).toBe(
      200,
    );
    expectError(
      await t.as('owner').patch(`/users/${t.accounts.owner.id}`, { role: Role.administrator }),
      400,
      'BAD_REQUEST',
      'The owner permission cannot be removed from the only organization owner.',
    );
    // ...and the bot itself is never the last owner.
    expect((await t.as('owner').patch(`/users/${ownerBot.id}`, { role: Role.member })).status).toBe(
      200,
    );
    expect((await t.as('owner').patch(`/users/${coOwner.id}`, { role: Role.owner })).status).toBe(
      200,
    );
  });
});

describe('PATCH /bots/{id}: owner role', () => {
  it("the bot's owner may not change its role at all; administrators not to or from owner", async () => {
    const bot = await makeBot(t, 'member', 'Ambitious Bot');
    expectError(
      await t.as('member').patch(`/bots/${bot.id}`, { role: Role.owner }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      OWNER_REQUIRED,
    );
    expectError(
      await t.as('member').patch(`/bots/${bot.id}`, { role: Role.moderator }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      ADMIN_REQUIRED,
    );
    expectError(
      await t.as('admin').patch(`/bots/${bot.id}`, { role: Role.owner }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      OWNER_REQUIRED,
    );
    expect((await t.as('owner').patch(`/bots/${bot.id}`, { role: Role.owner })).status).toBe(200);
    expectError(
      await t.as('admin').patch(`/bots/${bot.id}`, { role: Role.administrator }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      OWNER_REQUIRED,
    );
    expect(await roleOf(bot.id)).toBe(Role.owner);
    expectError(
      await t.as(bot).patch(`/bots/${bot.id}`, { role: Role.member }),
      400,
      'BAD_REQUEST',
      NOT_BOT,
    );
    expect((await t.as(coOwner).patch(`/bots/${bot.id}`, { role: Role.member })).status).toBe(200);
    expect(await roleOf(bot.id)).toBe(Role.member);
  });
});
