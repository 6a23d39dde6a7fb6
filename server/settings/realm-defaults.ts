import type { AppContext } from '../core/context.js';
import { setUserSettingsDefaults } from '../db/queries/realm.js';
import { activeUserIds, type UserRow } from '../db/queries/users.js';
import { loadRealm } from '../shared/realm.js';
import { requireRole } from '../shared/roles.js';
import { mergeUserSettings, type UserSettings } from '../shared/user-settings.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { checkSettingValues, settingNames } from './rules.js';

/**
 * Personal settings an organization may not choose for its people (Zulip's
 * endpoint leaves them out): the language the sign-up page picked, and
 * e-mail and data-export consents that are each person's own.
 */
const PERSONAL_ONLY = [
  'default_language',
  'enable_login_emails',
  'enable_marketing_emails',
  'allow_private_data_export',
] as const satisfies readonly (keyof UserSettings)[];

export type RealmDefaultSettingName = Exclude<keyof UserSettings, (typeof PERSONAL_ONLY)[number]>;

/** What PATCH /realm/user_settings_defaults takes. */
export const realmDefaultSettingNames = settingNames.filter(
  (n): n is RealmDefaultSettingName => !(PERSONAL_ONLY as readonly string[]).includes(n),
);

/**
 * PATCH /realm/user_settings_defaults (administrators): the settings new
 * accounts start with. Each value that changes is told to everyone in a
 * `realm_user_settings_defaults` event; existing accounts keep their own.
 */
export function changeRealmUserSettingsDefaults(
  ctx: AppContext,
  actor: UserRow,
  changes: Partial<UserSettings>,
): Record<string, never> {
  requireRole(actor, 'admin');
  checkSettingValues(changes);
  ctx.transaction((tx) => {
    const stored = JSON.parse(loadRealm(ctx).row.user_settings_defaults) as Record<string, unknown>;
    const current = mergeUserSettings(loadRealm(ctx).row.user_settings_defaults);
    // Zulip applies (and announces) them in its parameters' alphabetical order.
    const changed = (Object.keys(changes) as (keyof UserSettings)[])
      .filter((name) => changes[name] !== undefined && changes[name] !== current[name])
      .sort();
    if (changed.length === 0) return;
    for (const name of changed) stored[name] = changes[name];
    setUserSettingsDefaults(ctx.db, JSON.stringify(stored));
    const users = activeUserIds(ctx.db);
    for (const property of changed) {
      tx.emit({
        type: 'realm_user_settings_defaults',
        users,
        payload: {
          type: 'realm_user_settings_defaults',
          op: 'update',
          property,
          value: changes[property]!,
        } satisfies EventBody<'realm_user_settings_defaults', 'update'>,
      });
    }
  });
  return {};
}
