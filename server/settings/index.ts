/** The caller's own settings: PATCH /settings (name, password, personal settings) and its events. */

export {
  changeRealmUserSettingsDefaults,
  type RealmDefaultSettingName,
  realmDefaultSettingNames,
} from './realm-defaults.js';
export { type SettingSpec, settingNames, settingSpecs } from './rules.js';
export { changeSettings, type SettingsChange } from './settings.js';
