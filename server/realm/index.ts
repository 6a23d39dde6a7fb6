/** The organization: creating it, server settings and the realm part of POST /register. */
export { embeddedBotsState } from './config-state.js';
export { deactivateOrganization } from './deactivate.js';
export {
  createOrganization,
  type OrganizationSetup,
  organizationExists,
  organizationInfo,
  organizationSettings,
  primaryOwner,
  setUpOrganization,
} from './organization.js';
export { serverSettings } from './server-settings.js';
export { realmState } from './state.js';
export { serverStatus } from './status.js';
export {
  type RealmGroupSetting,
  type RealmUpdateInput,
  realmGroupSettings,
  type TimeLimitSetting,
  timeLimitSettings,
  updateRealm,
} from './update.js';
