/** The organization: creating it, server settings and the realm part of POST /register. */
export {
  defaultStreamGroupsState,
  defaultStreamsState,
  embeddedBotsState,
  incomingWebhookBotsState,
  realmEmojiState,
  realmFiltersState,
  realmLinkifiersState,
} from './config-state.js';
export {
  createOrganization,
  organizationExists,
  organizationInfo,
  primaryOwner,
} from './organization.js';
export { serverSettings } from './server-settings.js';
export { realmState } from './state.js';
