import { keepingBrowserSession } from '../auth/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { activeAdminIds } from '../db/queries/bots.js';
import {
  setUserPasswordHash,
  setUserSettings,
  setUserTimezone,
  type UserRow,
  userById,
} from '../db/queries/users.js';
import { draftsSynchronizationChanged } from '../drafts/index.js';
import { setPresenceEnabled } from '../presence/index.js';
import { hashPassword, verifyPassword } from '../shared/credentials.js';
import { loadRealm } from '../shared/realm.js';
import { realmUserUpdate } from '../shared/realm-user-update.js';
import { isAdmin, requireRole } from '../shared/roles.js';
import { mergeUserSettings, type UserSettings } from '../shared/user-settings.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { userIdsWhoCanAccess } from '../user-access/index.js';
import {
  accountWords,
  apiEmail,
  avatarChange,
  canSeeDeliveryEmail,
  changeFullName,
  checkFullName,
  displaySettingNames,
  isStrongPassword,
  notificationSettingNames,
} from '../users/index.js';
import { checkSettingValues, isTimezone, languageNames } from './rules.js';

export interface SettingsChange {
  settings: Partial<UserSettings>;
  timezone?: string;
  fullName?: string;
  email?: string;
  oldPassword?: string;
  newPassword?: string;
  /** Where the request came from: wrong old passwords count against it (rate-limit.ts). */
  clientAddress: string;
  /** The Cookie header of a request a browser session authenticated: that session outlives a password change. */
  sessionCookie?: string;
}

const displayNames = new Set<string>(displaySettingNames);

/**
 * The old password a change needs is a login like any other: it is limited
 * as POST /fetch_api_key is (whoever holds a key could otherwise guess the
 * password here), with Zulip's wording when the limit is hit.
 */
async function checkOldPassword(
  ctx: AppContext,
  user: UserRow,
  oldPassword: string,
  clientAddress: string,
): Promise<void> {
  try {
    await ctx.rateLimiter.checkPassword(
      clientAddress,
      user.email_key,
      async () => {
        if (!(await verifyPassword(oldPassword, user.password_hash))) {
          throw badRequest(WRONG_PASSWORD);
        }
      },
      (error) => error instanceof ApiError && error.message === WRONG_PASSWORD,
    );
  } catch (error) {
    if (error instanceof ApiError && error.code === 'RATE_LIMIT_HIT') {
      const seconds = Math.trunc(Number(error.extra['retry-after']));
      throw badRequest(`You're making too many attempts! Try again in ${seconds} seconds.`);
    }
    throw error;
  }
}

const WRONG_PASSWORD = 'Wrong password!';
const notificationNames = new Set<string>(notificationSettingNames);

/**
 * PATCH /settings (Zulip's json_change_settings): the caller's own name,
 * password and personal settings. Each changed setting is announced to the
 * user's queues as a `user_settings` event, and in the legacy form to queues
 * without the `user_settings_object` capability.
 */
export async function changeSettings(
  ctx: AppContext,
  user: UserRow,
  change: SettingsChange,
): Promise<Record<string, never>> {
  requireRole(user, 'human');
  if (change.timezone !== undefined && !isTimezone(change.timezone)) {
    throw badRequest('timezone is not a recognized time zone');
  }
  checkSettingValues(change.settings);

  let passwordHash: string | undefined;
  if (change.newPassword !== undefined) {
    await checkOldPassword(ctx, user, change.oldPassword ?? '', change.clientAddress);
    const words = accountWords(user.delivery_email, user.full_name);
    if (!(await isStrongPassword(change.newPassword, words))) {
      throw badRequest('New password is too weak!');
    }
    passwordHash = await hashPassword(change.newPassword);
  }

  const realm = loadRealm(ctx);
  if (change.email !== undefined && change.email.trim() !== user.delivery_email) {
    if (realm.settings.email_changes_disabled && !isAdmin(user)) {
      throw badRequest('Email address changes are disabled in this organization.');
    }
    // Zulip confirms a new address by e-mail; Hearth sends no e-mail.
    throw badRequest('Email address changes are not available on this server.');
  }

  let fullName: string | undefined;
  if (change.fullName !== undefined && change.fullName !== user.full_name) {
    // Like Zulip, a refused name change fails silently (the UI does not offer it).
    if (!realm.settings.name_changes_disabled || isAdmin(user)) {
      fullName = checkFullName(change.fullName);
    }
  }

  ctx.transaction((tx) => {
    // Re-read inside the transaction so concurrent changes are not lost.
    let current = userById(ctx.db, user.id) ?? user;
    if (passwordHash !== undefined) {
      const hash = passwordHash;
      keepingBrowserSession(ctx, change.sessionCookie, user.id, () =>
        setUserPasswordHash(ctx.db, user.id, hash),
      );
    }
    if (fullName !== undefined) changeFullName(ctx, tx, current, fullName);

    const before = mergeUserSettings(current.settings);
    const changed = (
      Object.entries(change.settings) as [keyof UserSettings, UserSettings[keyof UserSettings]][]
    ).filter(([name, value]) => value !== undefined && before[name] !== value);
    const presence = changed.find(([name]) => name === 'presence_enabled');
    const others = changed.filter(([name]) => name !== 'presence_enabled');
    if (others.length > 0) {
      setUserSettings(ctx.db, user.id, withOverrides(current.settings, others));
      const email = apiEmail(current, realm.row.email_domain);
      for (const [name, value] of others) emitSettingChange(tx, user.id, email, name, value);
    }
    const updated = userById(ctx.db, user.id) ?? current;

    if (presence) setPresenceEnabled(ctx, tx, updated, presence[1] as boolean);
    if (others.some(([name, value]) => name === 'enable_drafts_synchronization' && !value)) {
      draftsSynchronizationChanged(ctx, user.id, false);
    }
    const consent = others.find(([name]) => name === 'allow_private_data_export');
    if (consent && !user.is_bot) {
      // Administrators' export pages list who consented (GET /export/realm/consents).
      tx.emit({
        type: 'realm_export_consent',
        users: activeAdminIds(ctx.db),
        payload: {
          type: 'realm_export_consent',
          user_id: user.id,
          consented: consent[1] as boolean,
        } satisfies EventBody<'realm_export_consent'>,
      });
    }
    if (others.some(([name]) => name === 'email_address_visibility')) {
      emitEmailVisibilityChange(ctx, tx, current, updated, realm.row.email_domain);
    }

    if (change.timezone !== undefined && change.timezone !== current.timezone) {
      setUserTimezone(ctx.db, user.id, change.timezone);
      current = userById(ctx.db, user.id) ?? current;
      const email = apiEmail(current, realm.row.email_domain);
      emitSettingChange(tx, user.id, email, 'timezone', change.timezone);
      tx.emit({
        type: 'realm_user',
        users: userIdsWhoCanAccess(ctx, user.id),
        payload: realmUserUpdate(user.id, { email, timezone: change.timezone }),
      });
    }
  });
  return {};
}

function withOverrides(json: string, entries: [string, unknown][]): string {
  let overrides: Record<string, unknown> = {};
  try {
    overrides = JSON.parse(json) as Record<string, unknown>;
  } catch {
    // Unreadable overrides read as defaults (mergeUserSettings); start afresh.
  }
  for (const [name, value] of entries) overrides[name] = value;
  return JSON.stringify(overrides);
}

/** A user setting's value as its events carry it. */
type SettingValue = EventBody<'user_settings', 'update'>['value'];

function emitSettingChange(
  tx: Tx,
  userId: number,
  email: string,
  name: string,
  value: SettingValue,
): void {
  const language =
    name === 'default_language' ? { language_name: languageNames[value as string] } : {};
  tx.emit({
    type: 'user_settings',
    users: [userId],
    payload: {
      type: 'user_settings',
      op: 'update',
      property: name,
      value,
      ...language,
    } satisfies EventBody<'user_settings', 'update', 'language_name'>,
  });
  if (notificationNames.has(name)) {
    tx.emit({
      type: 'update_global_notifications',
      users: [userId],
      payload: (queue) =>
        queue.options.capabilities.user_settings_object
          ? null
          : ({
              type: 'update_global_notifications',
              user: email,
              notification_name: name,
              setting: value,
            } satisfies EventBody<'update_global_notifications'>),
    });
  }
  if (displayNames.has(name) || name === 'timezone') {
    tx.emit({
      type: 'update_display_settings',
      users: [userId],
      payload: (queue) =>
        queue.options.capabilities.user_settings_object
          ? null
          : ({
              type: 'update_display_settings',
              user: email,
              setting_name: name,
              setting: value,
              ...language,
            } satisfies EventBody<'update_display_settings', string, 'language_name'>),
    });
  }
}

/**
 * Who may see the user's real address changed (Zulip's
 * send_delivery_email_update_events): those who gained access hear it,
 * those who lost it hear null; a move to or from "everyone" changes the
 * API e-mail itself, which every user hears as `new_email`, followed by
 * the avatar fields, as in Zulip.
 */
function emitEmailVisibilityChange(
  ctx: AppContext,
  tx: Tx,
  before: UserRow,
  after: UserRow,
  emailDomain: string,
): void {
  const gained: number[] = [];
  const lost: number[] = [];
  for (const id of userIdsWhoCanAccess(ctx, after.id)) {
    if (id === after.id) continue;
    const viewer = userById(ctx.db, id);
    if (!viewer) continue;
    const could = canSeeDeliveryEmail(viewer, before);
    const can = canSeeDeliveryEmail(viewer, after);
    if (can && !could) gained.push(id);
    if (could && !can) lost.push(id);
  }
  const person = (delivery_email: string | null) => realmUserUpdate(after.id, { delivery_email });
  if (gained.length > 0)
    tx.emit({ type: 'realm_user', users: gained, payload: person(after.delivery_email) });
  if (lost.length > 0) tx.emit({ type: 'realm_user', users: lost, payload: person(null) });
  const oldEmail = apiEmail(before, emailDomain);
  const newEmail = apiEmail(after, emailDomain);
  if (oldEmail !== newEmail) {
    tx.emit({
      type: 'realm_user',
      users: userIdsWhoCanAccess(ctx, after.id),
      payload: realmUserUpdate(after.id, { new_email: newEmail }),
    });
    // The avatar event Zulip sends with it (notify_avatar_url_change): always a URL.
    tx.emit({
      type: 'realm_user',
      users: userIdsWhoCanAccess(ctx, after.id),
      payload: realmUserUpdate(after.id, avatarChange(after)),
    });
  }
}
