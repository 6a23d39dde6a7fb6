import { existsSync } from 'node:fs';
import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { getRealm, insertRealm } from '../db/queries/realm.js';
import { addSubgroup, groupByName, insertGroup } from '../db/queries/user-groups.js';
import { allUsers, type UserRow } from '../db/queries/users.js';
import { MAX_REALM_DESCRIPTION_LENGTH, MAX_REALM_NAME_LENGTH } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { Role, requireRole, systemGroups } from '../shared/roles.js';
import {
  accountWords,
  checkEmail,
  checkFullName,
  createUser,
  isStrongPassword,
} from '../users/index.js';

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

export interface OrganizationSetup {
  realmName: string;
  ownerName: string;
  email: string;
  password: string;
}

const invalidField = (message: string, varName: string) =>
  new ApiError(message, { extra: { var_name: varName } });

/** Set while a first-run setup is creating the organization: a second one must not. */
let setupInProgress = false;

/**
 * The desktop's first-run wizard: the organization and its owner as the
 * person at the keyboard chose them. Refused once an organization exists.
 */
export async function setUpOrganization(ctx: AppContext, input: OrganizationSetup) {
  if (organizationExists(ctx) || setupInProgress) {
    throw badRequest('The organization has already been set up');
  }
  const realmName = input.realmName.trim();
  if (realmName === '') throw invalidField('Organization name is required', 'realm_name');
  if ([...realmName].length > MAX_REALM_NAME_LENGTH) {
    throw invalidField(
      `Organization name is too long (at most ${MAX_REALM_NAME_LENGTH} characters)`,
      'realm_name',
    );
  }
  const ownerName = withVarName(() => checkFullName(input.ownerName), 'owner_name');
  const email = withVarName(() => checkEmail(input.email), 'email');
  setupInProgress = true;
  try {
    // Zulip's PASSWORD_TOO_WEAK_ERROR, as for any new account's password.
    if (!(await isStrongPassword(input.password, accountWords(email, ownerName, realmName)))) {
      throw invalidField('The password is too weak.', 'password');
    }
    return await createOrganization(ctx, {
      name: realmName,
      emailDomain: SETUP_EMAIL_DOMAIN,
      ownerEmail: email,
      ownerName,
      ownerPassword: input.password,
    });
  } finally {
    setupInProgress = false;
  }
}

/** Bots' addresses live under it; people keep their own. */
const SETUP_EMAIL_DOMAIN = 'hearth.local';

function withVarName<T>(check: () => T, varName: string): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof ApiError) throw invalidField(err.message, varName);
    throw err;
  }
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

/** What the admin UI's Organization page edits (the PATCH /realm values), with their limits. */
export function organizationSettings(ctx: AppContext, actor: UserRow) {
  requireRole(actor, 'admin');
  const realm = loadRealm(ctx);
  const s = realm.settings;
  return {
    name: realm.row.name,
    description: realm.row.description,
    allow_message_editing: s.allow_message_editing,
    allow_edit_history: s.allow_edit_history,
    mandatory_topics: s.mandatory_topics,
    emails_restricted_to_domains: s.emails_restricted_to_domains,
    enable_read_receipts: s.enable_read_receipts,
    waiting_period_threshold: s.waiting_period_threshold,
    limits: { name: MAX_REALM_NAME_LENGTH, description: MAX_REALM_DESCRIPTION_LENGTH },
  };
}
