import {
  channelsVisibleTo,
  emitRoleVisibilityChange,
  emitSubscriberActivation,
} from '../channels/index.js';
import type { AppContext, Tx } from '../core/context.js';
import {
  ApiError,
  badRequest,
  insufficientPermission,
  noSuchUser,
  ownerRequired,
  targetUserDeactivated,
} from '../core/errors.js';
import { activeAccountNamed, setBotOwner } from '../db/queries/bots.js';
import { maxMessageId } from '../db/queries/messages.js';
import { allProfileValues, profileValuesOf } from '../db/queries/profile-values.js';
import {
  allUsers,
  botsOwnedBy,
  countActiveOwners,
  insertUser,
  setUserActive,
  setUserApiKey,
  setUserFullName,
  setUserPasswordHash,
  setUserRole,
  type UserRow,
  userByEmailKey,
  userById,
} from '../db/queries/users.js';
import {
  checkProfileData,
  type ProfileDataItem,
  writeProfileData,
} from '../profile-fields/index.js';
import { checkEmailAllowedInRealm } from '../realm-domains/index.js';
import { generateApiKey, hashPassword } from '../shared/credentials.js';
import { MAX_USER_NAME_LENGTH, MIN_USER_NAME_LENGTH } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { type PersonChange, realmUserUpdate } from '../shared/realm-user-update.js';
import { isAdmin, isOwner, Role, requireRole, roleValues } from '../shared/roles.js';
import type { User } from '../shared/zulip-api/index.js';
import { canAccessUser, userAccessCheck } from '../user-access/index.js';
import {
  emitPersonCreated,
  emitPersonDeactivated,
  realmUserUpdateAudience,
} from './access-events.js';
import { canAdminBot, emitBotOwnerChange, emitBotUpdate } from './bot-records.js';
import { apiEmail, formatUser, groupProfileValues, type Viewer } from './format.js';
import { announceGroupReturn, joinSystemGroups } from './group-memberships.js';
import { accountWords, isStrongPassword } from './passwords.js';
import { isSystemBot } from './system-bots.js';

/** Characters that would break mention syntax (`@**name**`) or quoting. */
const NAME_INVALID_CHARS = /[*`\\>"@\u0000-\u001f\u007f]/;

/** Zulip's full-name rules (`check_full_name`). */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length > MAX_USER_NAME_LENGTH) throw badRequest('Name too long!');
  if (length < MIN_USER_NAME_LENGTH) throw badRequest('Name too short!');
  if (NAME_INVALID_CHARS.test(name)) throw badRequest('Invalid characters in name!');
  // "Name|15" would be ambiguous with the mention syntax for duplicate names.
  if (/\|\d+$/.test(name)) throw badRequest('Invalid format!');
  return name;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$|^[^\s@]+@[^\s@.]+$/;

export function checkEmail(raw: string): string {
  const email = raw.trim();
  if (!EMAIL.test(email) || email.length > 254) throw badRequest(`Invalid email '${raw}'`);
  return email;
}

/** The user `id` if it exists (bots included when `allowBots`), else "No such user". */
export function accessUserById(
  ctx: AppContext,
  id: number,
  opts: { allowBots?: boolean; allowDeactivated?: boolean } = {},
): UserRow {
  const user = userById(ctx.db, id);
  if (!user) throw noSuchUser();
  if (user.is_bot && !opts.allowBots) throw noSuchUser();
  if (!user.is_active && !opts.allowDeactivated) throw targetUserDeactivated();
  return user;
}

/** A new account's realm_user `add` (bots and humans alike). */
function emitPersonAdd(ctx: AppContext, tx: Tx, userId: number): void {
  emitPersonCreated(ctx, tx, userId);
}

/** A realm_user `update` to everyone who may see the user. */
function emitPersonUpdate(ctx: AppContext, tx: Tx, userId: number, change: PersonChange): void {
  tx.emit({
    type: 'realm_user',
    users: realmUserUpdateAudience(ctx, userId),
    payload: realmUserUpdate(userId, change),
  });
}

export function viewerOf(user: UserRow): Viewer {
  return { id: user.id, role: user.role };
}

export function listUsers(
  ctx: AppContext,
  actor: UserRow,
  opts: { includeCustomProfileFields: boolean; userIds?: number[] },
) {
  const realm = loadRealm(ctx);
  const profileValues = opts.includeCustomProfileFields
    ? groupProfileValues(allProfileValues(ctx.db))
    : undefined;
  const wanted = opts.userIds ? new Set(opts.userIds) : null;
  // Zulip's GET /users declares user_list_incomplete: users hidden from a guest are left out.
  const mayAccess = userAccessCheck(ctx, actor);
  const members = allUsers(ctx.db)
    .filter((u) => (!wanted || wanted.has(u.id)) && mayAccess(u))
    .map((u) =>
      formatUser(u, viewerOf(actor), {
        emailDomain: realm.row.email_domain,
        profileValues,
      }),
    );
  return { members };
}

export function getUser(
  ctx: AppContext,
  actor: UserRow,
  target: UserRow,
  opts: { includeCustomProfileFields: boolean },
) {
  const realm = loadRealm(ctx);
  return formatUser(target, viewerOf(actor), {
    emailDomain: realm.row.email_domain,
    profileValues: opts.includeCustomProfileFields
      ? groupProfileValues(profileValuesOf(ctx.db, target.id))
      : undefined,
  });
}

/**
 * Zulip's access_user_by_id with for_admin=False: the user, if `actor` may
 * see them (limited user access for guests), else "Insufficient permission".
 */
export function accessReadableUser(
  ctx: AppContext,
  actor: UserRow,
  id: number,
  opts: { allowBots?: boolean; allowDeactivated?: boolean } = {},
): UserRow {
  return checkReadable(ctx, actor, accessUserById(ctx, id, opts));
}

function checkReadable(ctx: AppContext, actor: UserRow, target: UserRow): UserRow {
  if (!canAccessUser(ctx, actor, target)) throw insufficientPermission();
  return target;
}

/** GET /users/{user_id}: any user, bots and deactivated users included. */
export function getUserById(
  ctx: AppContext,
  actor: UserRow,
  id: number,
  opts: { includeCustomProfileFields: boolean },
) {
  const target = accessReadableUser(ctx, actor, id, { allowBots: true, allowDeactivated: true });
  return getUser(ctx, actor, target, opts);
}

/** GET /users/{email}: by API e-mail, or by real e-mail where the caller may see it. */
export function getUserByEmail(
  ctx: AppContext,
  actor: UserRow,
  email: string,
  opts: { includeCustomProfileFields: boolean },
) {
  return getUser(ctx, actor, checkReadable(ctx, actor, accessUserByEmail(ctx, actor, email)), opts);
}

/** GET /users/me: the caller's own record, with the newest message id (Zulip's max_message_id). */
export function getOwnUser(ctx: AppContext, user: UserRow) {
  return {
    ...getUser(ctx, user, user, { includeCustomProfileFields: true }),
    max_message_id: maxMessageId(ctx.db),
  };
}

/** Looks a user up by API e-mail or real e-mail, as GET /users/{email} does. */
export function accessUserByEmail(ctx: AppContext, actor: UserRow, email: string): UserRow {
  const realm = loadRealm(ctx);
  // Zulip's access_user_by_email reads a made-up address (user{id}@ the fake
  // domain, as Zulip's regex matches it: from the start, case as written)
  // as the id, whatever the user's own address visibility.
  const madeUp = madeUpAddress(realm.row.email_domain).exec(email);
  if (madeUp) {
    const user = userById(ctx.db, Number(madeUp[1]));
    if (!user) throw noSuchUser();
    return user;
  }
  const key = email.trim().toLowerCase();
  const byDelivery = userByEmailKey(ctx.db, key);
  if (
    byDelivery &&
    (apiEmail(byDelivery, realm.row.email_domain).toLowerCase() === key ||
      byDelivery.id === actor.id)
  ) {
    return byDelivery;
  }
  // Viewers who may see real addresses may also look users up by them.
  if (
    byDelivery &&
    getUser(ctx, actor, byDelivery, { includeCustomProfileFields: false }).delivery_email !== null
  ) {
    return byDelivery;
  }
  throw noSuchUser();
}

/**
 * The user whose API e-mail (`email` in user objects: the real address or
 * the made-up one, as their address visibility says) is `email`, any case,
 * deactivated users included (Zulip's get_user). No other address finds them.
 */
export function userByApiEmail(ctx: AppContext, email: string): UserRow | undefined {
  const domain = loadRealm(ctx).row.email_domain;
  const key = email.trim().toLowerCase();
  const madeUp = madeUpAddress(domain).exec(key);
  const candidate = madeUp ? userById(ctx.db, Number(madeUp[1])) : userByEmailKey(ctx.db, key);
  return candidate && apiEmail(candidate, domain).toLowerCase() === key ? candidate : undefined;
}

/** Zulip's get_dummy_email_address_for_display_regex. */
const madeUpAddress = (domain: string) =>
  new RegExp(`^user(\\d+)@${domain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

const emailInUse = (email: string) => badRequest(`Email '${email}' already in use`);

export interface NewUserInput {
  email: string;
  password: string | null;
  fullName: string;
  role?: number;
  /** A person chose this password without an administrator (an invitation's sign-up): the rule applies. */
  passwordChosenBySelf?: boolean;
}

/** Zulip's PASSWORD_TOO_WEAK_ERROR (POST /users). */
const PASSWORD_TOO_WEAK = 'The password is too weak.';

/**
 * Creates a human account (POST /users and first-start bootstrap share it).
 * A password an administrator chose (`actor` set: POST /users, the admin
 * UI) or the person signing up chose must meet the password rule; the server's own callers (first start,
 * the demo, the first-run wizard after its own check) pass ones they made
 * or checked. `setUp` runs in the same transaction once the account exists:
 * what a higher area gives every new account (onboarding/'s subscriptions and
 * welcome), so a failure there leaves no half-made account.
 */
export async function createUser(
  ctx: AppContext,
  actor: UserRow | null,
  input: NewUserInput,
  setUp?: (tx: Tx, user: UserRow) => void,
): Promise<{ user_id: number; api_key: string }> {
  if (actor) requireRole(actor, 'admin');
  // Only owners make owners, whichever door the request came through.
  if (actor && input.role === Role.owner) requireRole(actor, 'owner');
  const email = checkEmail(input.email);
  const fullName = checkFullName(input.fullName);
  const role = input.role ?? Role.member;
  if (!roleValues.includes(role)) throw badRequest('Invalid role');
  checkEmailAllowedInRealm(ctx, email);
  if ((actor || input.passwordChosenBySelf) && input.password !== null) {
    // Zulip's order: an address in use is reported before a weak password.
    if (userByEmailKey(ctx.db, email.toLowerCase())) throw emailInUse(email);
    if (!(await isStrongPassword(input.password, accountWords(email, fullName)))) {
      throw badRequest(PASSWORD_TOO_WEAK);
    }
  }
  // Hash before the transaction: scrypt is deliberately slow and must not hold the write lock.
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const apiKey = generateApiKey();
  return ctx.transaction((tx) => {
    // Again inside: another request may have taken it while the password hashed.
    if (userByEmailKey(ctx.db, email.toLowerCase())) throw emailInUse(email);
    const id = insertUser(ctx.db, {
      delivery_email: email,
      full_name: fullName,
      role,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
      api_key: apiKey,
      password_hash: passwordHash,
      date_joined_ms: ctx.now(),
      // New accounts start from the organization's defaults (PATCH /realm/user_settings_defaults).
      settings: loadRealm(ctx).row.user_settings_defaults,
    });
    emitPersonAdd(ctx, tx, id);
    joinSystemGroups(ctx, tx, id, role);
    setUp?.(tx, userById(ctx.db, id)!);
    return { user_id: id, api_key: apiKey };
  });
}

export { emitPersonAdd };

/** Zulip's check_last_owner: the only active human owner (bots never count). */
function isLastOwner(ctx: AppContext, target: UserRow): boolean {
  return target.role === Role.owner && !target.is_bot && countActiveOwners(ctx.db) <= 1;
}

/**
 * Whether `actor` may give `target` (a person or a bot) the role `role`:
 * only owners make or unmake owners, only administrators change roles, and
 * the last owner stays one.
 */
export function checkRoleChange(
  ctx: AppContext,
  actor: UserRow,
  target: UserRow,
  role: number,
): void {
  if (!roleValues.includes(role)) throw badRequest('Invalid role');
  if (role === target.role) return;
  // The Notification Bot speaks for the server; Zulip keeps it outside the realm altogether.
  if (isSystemBot(ctx, target)) throw badRequest('The role of a system bot cannot be changed');
  if ((role === Role.owner || target.role === Role.owner) && !isOwner(actor)) {
    throw ownerRequired();
  }
  requireRole(actor, 'admin');
  if (isLastOwner(ctx, target)) {
    throw badRequest('The owner permission cannot be removed from the only organization owner.');
  }
}

/** Writes a checked role: everyone hears of it, the user sees the channels it opens or hides. */
export function changeRole(ctx: AppContext, tx: Tx, target: UserRow, role: number): void {
  if (role === target.role) return;
  const visibleBefore = channelsVisibleTo(ctx, target);
  setUserRole(ctx.db, target.id, role);
  emitPersonUpdate(ctx, tx, target.id, { role: role as User['role'] });
  joinSystemGroups(ctx, tx, target.id, role);
  emitRoleVisibilityChange(ctx, tx, { ...target, role }, visibleBefore);
}

/** Writes a checked name; a bot's administrators also get realm_bot `update`. */
export function changeFullName(ctx: AppContext, tx: Tx, target: UserRow, fullName: string): void {
  if (fullName === target.full_name) return;
  setUserFullName(ctx.db, target.id, fullName);
  emitPersonUpdate(ctx, tx, target.id, { full_name: fullName });
  if (target.is_bot) emitBotUpdate(ctx, tx, target, { full_name: fullName });
}

export function updateUser(
  ctx: AppContext,
  actor: UserRow,
  targetId: number,
  changes: { fullName?: string; role?: number; profileData?: ProfileDataItem[] },
): Record<string, never> {
  requireRole(actor, 'admin');
  const target = accessUserById(ctx, targetId, { allowBots: true, allowDeactivated: true });
  const fullName = changes.fullName !== undefined ? checkFullName(changes.fullName) : undefined;
  const role = changes.role;
  if (role !== undefined) checkRoleChange(ctx, actor, target, role);
  const profileData =
    changes.profileData !== undefined ? checkProfileData(ctx, actor, changes.profileData) : [];
  ctx.transaction((tx) => {
    if (fullName !== undefined) changeFullName(ctx, tx, target, fullName);
    if (role !== undefined) changeRole(ctx, tx, target, role);
    writeProfileData(ctx, tx, target.id, profileData);
  });
  return {};
}

/** PATCH /users/{email}: PATCH /users/{user_id} for the user that address names. */
export function updateUserByEmail(
  ctx: AppContext,
  actor: UserRow,
  email: string,
  changes: { fullName?: string; role?: number; profileData?: ProfileDataItem[] },
): Record<string, never> {
  return updateUser(ctx, actor, accessUserByEmail(ctx, actor, email).id, changes);
}

/**
 * One account's (de)activation and its events (Zulip's do_deactivate_user
 * and do_reactivate_user): everyone hears is_active, the channels' peers
 * peer_remove / peer_add, a bot's administrators realm_bot `update`.
 */
function setActivation(ctx: AppContext, tx: Tx, target: UserRow, active: boolean): void {
  setUserActive(ctx.db, target.id, active);
  if (active) emitPersonUpdate(ctx, tx, target.id, { is_active: true });
  else emitPersonDeactivated(ctx, tx, target.id);
  emitSubscriberActivation(ctx, tx, target.id, active ? 'peer_add' : 'peer_remove');
  if (target.is_bot) emitBotUpdate(ctx, tx, target, { is_active: active });
  if (active) announceGroupReturn(ctx, tx, target.id);
}

/**
 * Deactivates an active account inside `tx`; a person's active bots go
 * first, as in Zulip. Returns every account deactivated, whose event queues
 * the caller drops after the commit (dropEventQueues).
 */
export function deactivateAccount(ctx: AppContext, tx: Tx, target: UserRow): number[] {
  const gone: number[] = [];
  if (!target.is_bot) {
    for (const bot of botsOwnedBy(ctx.db, target.id)) {
      if (!bot.is_active) continue;
      setActivation(ctx, tx, bot, false);
      gone.push(bot.id);
    }
  }
  setActivation(ctx, tx, target, false);
  gone.push(target.id);
  return gone;
}

/** A deactivated account's clients lose their queues at once, as in Zulip. */
export function dropEventQueues(ctx: AppContext, userIds: readonly number[]): void {
  for (const userId of userIds) {
    for (const queue of [...ctx.events.queuesOf(userId)]) ctx.events.delete(queue);
  }
}

export function deactivateUser(
  ctx: AppContext,
  actor: UserRow,
  targetId: number,
): Record<string, never> {
  requireRole(actor, 'admin');
  const target = accessUserById(ctx, targetId);
  if (target.role === Role.owner && !isOwner(actor)) throw ownerRequired();
  if (isLastOwner(ctx, target)) throw badRequest('Cannot deactivate the only organization owner');
  const gone = ctx.transaction((tx) => deactivateAccount(ctx, tx, target));
  dropEventQueues(ctx, gone);
  return {};
}

/** Zulip's CannotDeactivateLastUserError. */
const cannotDeactivateLastUser = (isLastOwner: boolean) => {
  const entity = isLastOwner ? 'organization owner' : 'user';
  return new ApiError(`Cannot deactivate the only ${entity}.`, {
    code: 'CANNOT_DEACTIVATE_LAST_USER',
    extra: { is_last_owner: isLastOwner, entity },
  });
};

/**
 * DELETE /users/me: anyone may leave, except the organization's only
 * account (the server's own bots do not count) or its only owner. Their
 * bots go with them and their clients lose their queues.
 */
export function deactivateOwnAccount(ctx: AppContext, actor: UserRow): Record<string, never> {
  const active = allUsers(ctx.db).filter((u) => u.is_active && !isSystemBot(ctx, u));
  if (active.length === 1) throw cannotDeactivateLastUser(false);
  if (isLastOwner(ctx, actor)) throw cannotDeactivateLastUser(true);
  const gone = ctx.transaction((tx) => deactivateAccount(ctx, tx, actor));
  dropEventQueues(ctx, gone);
  return {};
}

/**
 * POST /users/{id}/reactivate: people by administrators; bots also by their
 * owner, who must be allowed to create bots (Zulip's
 * check_bot_creation_policy), and not while an active account has the
 * bot's name. A bot whose owner is deactivated passes to the person
 * reactivating it.
 */
export function reactivateUser(
  ctx: AppContext,
  actor: UserRow,
  targetId: number,
): Record<string, never> {
  const target = accessUserById(ctx, targetId, { allowBots: true, allowDeactivated: true });
  if (!target.is_bot) {
    requireRole(actor, 'admin');
  } else {
    if (!canAdminBot(actor, target)) throw insufficientPermission();
    if (!isAdmin(actor)) {
      requireRole(actor, 'member');
      requireRole(actor, 'human');
    }
  }
  if (target.is_active) throw badRequest('User is already active');
  if (target.is_bot && activeAccountNamed(ctx.db, target.full_name)) {
    throw badRequest(
      `There is already an active bot named "${target.full_name}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
    );
  }
  const previousOwner =
    target.is_bot && target.bot_owner_id !== null
      ? (userById(ctx.db, target.bot_owner_id) ?? null)
      : null;
  const newOwner = previousOwner && !previousOwner.is_active && !actor.is_bot ? actor : null;
  ctx.transaction((tx) => {
    let row = target;
    if (newOwner) {
      setBotOwner(ctx.db, target.id, newOwner.id);
      row = { ...target, bot_owner_id: newOwner.id };
    }
    setActivation(ctx, tx, row, true);
    if (newOwner) emitBotOwnerChange(ctx, tx, row, newOwner, previousOwner);
  });
  return {};
}

/**
 * Replaces an account's API key: the old one stops working at once. A
 * bot's administrators get realm_bot `update` with the new key.
 */
export function replaceApiKey(ctx: AppContext, tx: Tx, target: UserRow): string {
  const apiKey = generateApiKey();
  setUserApiKey(ctx.db, target.id, apiKey);
  if (target.is_bot) emitBotUpdate(ctx, tx, target, { api_key: apiKey });
  return apiKey;
}

/**
 * The admin UI's "reset password": an administrator sets a person's password
 * (Hearth sends no e-mail, so there is no reset link to mail). Only owners
 * reset owners'. The password rule applies, with Zulip's text for a weak
 * new password.
 */
export async function setUserPassword(
  ctx: AppContext,
  actor: UserRow,
  targetId: number,
  password: string,
): Promise<Record<string, never>> {
  requireRole(actor, 'admin');
  const target = accessUserById(ctx, targetId, { allowDeactivated: true });
  if (target.role === Role.owner && !isOwner(actor)) throw ownerRequired();
  if (!(await isStrongPassword(password, accountWords(target.delivery_email, target.full_name)))) {
    throw badRequest('New password is too weak!');
  }
  const hash = await hashPassword(password);
  ctx.transaction(() => setUserPasswordHash(ctx.db, target.id, hash));
  return {};
}

/** The admin UI's "new API key" for a person: the old key stops working at once. */
export function regenerateUserApiKey(ctx: AppContext, actor: UserRow, targetId: number) {
  requireRole(actor, 'admin');
  const target = accessUserById(ctx, targetId, { allowDeactivated: true });
  if (target.role === Role.owner && !isOwner(actor)) throw ownerRequired();
  const apiKey = ctx.transaction((tx) => replaceApiKey(ctx, tx, target));
  return { api_key: apiKey };
}

/**
 * The e-mail and API key a zuliprc for `targetId` holds, for the admin UI's
 * download: your own, your bots' (administrators: any bot's), and for an
 * owner anyone's, since the desktop owner hands people their credentials.
 */
export function accountCredentials(ctx: AppContext, actor: UserRow, targetId: number) {
  const target = accessUserById(ctx, targetId, { allowBots: true, allowDeactivated: true });
  const allowed =
    target.id === actor.id ||
    (target.is_bot ? canAdminBot(actor, target) && !isSystemBot(ctx, target) : isOwner(actor));
  if (!allowed) throw insufficientPermission();
  return { email: target.delivery_email, apiKey: target.api_key };
}

/** POST /users/me/api_key/regenerate: anyone, bots included, for their own key. */
export function regenerateOwnApiKey(ctx: AppContext, user: UserRow) {
  const apiKey = ctx.transaction((tx) => replaceApiKey(ctx, tx, user));
  return { api_key: apiKey };
}
