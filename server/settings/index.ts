/** The caller's own settings: PATCH /settings (name, password, personal settings) and its events. */
export { type SettingSpec, settingNames, settingSpecs } from './rules.js';
export { changeSettings, type SettingsChange } from './settings.js';
