import type { Migration } from './index.js';

/**
 * `realm.user_settings_defaults`: the organization's defaults for new
 * accounts' personal settings (Zulip's RealmUserDefault, PATCH
 * /realm/user_settings_defaults), as JSON overrides of Zulip's own defaults,
 * the way users.settings stores a person's.
 */
export const realmUserSettingsDefaults: Migration = {
  version: 13,
  name: 'realm user settings defaults',
  up(db) {
    db.exec(`ALTER TABLE realm ADD COLUMN user_settings_defaults TEXT NOT NULL DEFAULT '{}'`);
  },
};
