/** The organization: creating it, server settings and the realm part of POST /register. */
export {
  defaultStreamGroupsState,
  defaultStreamsState,
  embeddedBotsState,
  incomingWebhookBotsState,
  realmFiltersState,
  realmLinkifiersState,
} from './config-state.js';
export { deactivateOrganization } from './deactivate.js';
export {
  createOrganization,
  organizationExists,
  organizationInfo,
  primaryOwner,
} from './organization.js';
export { serverSettings } from './server-settings.js';
export { realmState } from './state.js';
export {
  type RealmGroupSetting,
  type RealmUpdateInput,
  realmGroupSettings,
  type TimeLimitSetting,
  timeLimitSettings,
  updateRealm,
} from './update.js';
