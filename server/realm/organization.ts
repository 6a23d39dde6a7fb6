import { existsSync } from 'node:fs';
import type { AppContext } from '../core/context.js';
import { getRealm, insertRealm } from '../db/queries/realm.js';
import { addSubgroup, groupByName, insertGroup } from '../db/queries/user-groups.js';
import { allUsers, type UserRow } from '../db/queries/users.js';
import { loadRealm } from '../shared/realm.js';
import { Role, requireRole, systemGroups } from '../shared/roles.js';
import { createUser } from '../users/index.js';

export interface NewOrganization {
  name: string;
  emailDomain: string;
  ownerEmail: string;
  ownerName: string;
  ownerPassword: string;
}

export function organizationExists(ctx: AppContext): boolean {
  return getRealm(ctx.db) !== undefined;
}

/** First start: the organization, its system groups and its owner. */
export async function createOrganization(ctx: AppContext, input: NewOrganization) {
  ctx.transaction(() => {
    const nowSeconds = Math.floor(ctx.now() / 1000);
    insertRealm(ctx.db, {
      name: input.name,
      description: '',
      email_domain: input.emailDomain,
      date_created: nowSeconds,
    });
    let inner: number | null = null;
    // Innermost (owners) first so each group can take the previous as subgroup.
    for (const group of [...systemGroups].reverse()) {
      const id = insertGroup(ctx.db, {
        name: group.name,
        description: group.description,
        is_system_group: true,
        date_created: nowSeconds,
        creator_id: null,
      });
      if (inner !== null && group.name !== 'role:nobody') addSubgroup(ctx.db, id, inner);
      if (group.name !== 'role:nobody') inner = id;
    }
    // role:nobody was inserted first and must not contain anyone.
    const nobody = groupByName(ctx.db, 'role:nobody');
    if (!nobody) throw new Error('system groups missing');
  });
  const owner = await createUser(ctx, null, {
    email: input.ownerEmail,
    password: input.ownerPassword,
    fullName: input.ownerName,
    role: Role.owner,
  });
  return owner;
}

/**
 * The account the desktop admin acts as: the longest-standing active human
 * owner. The domain refuses to demote or deactivate the last owner, so one exists
 * once the organization does.
 */
export function primaryOwner(ctx: AppContext): UserRow {
  const owner = allUsers(ctx.db).find(
    (u) => u.role === Role.owner && u.is_active === 1 && u.is_bot === 0,
  );
  if (!owner) throw new Error('the organization has no active owner');
  return owner;
}

export interface OrganizationInfo {
  name: string;
  url: string;
  emailDomain: string;
  ownerEmail: string;
  ownerName: string;
  /** The owner's zuliprc, when it exists on disk. */
  zuliprcPath: string | null;
}

/** What the admin UI shows about the organization and how to connect to it (admins only). */
export function organizationInfo(
  ctx: AppContext,
  actor: UserRow,
  zuliprcPath: string | null,
): OrganizationInfo {
  requireRole(actor, 'admin');
  const realm = loadRealm(ctx);
  const owner = primaryOwner(ctx);
  return {
    name: realm.row.name,
    url: ctx.config.externalUrl,
    emailDomain: realm.row.email_domain,
    ownerEmail: owner.delivery_email,
    ownerName: owner.full_name,
    zuliprcPath: zuliprcPath && existsSync(zuliprcPath) ? zuliprcPath : null,
  };
}
