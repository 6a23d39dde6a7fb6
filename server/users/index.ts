/** Users and bots: lookup, formatting, settings, create, update, (de)activate, the Notification Bot. */

export {
  emitAccessGained,
  emitAccessLost,
  peersBeforeChange,
  realmUserUpdateAudience,
} from './access-events.js';
export {
  accessBotById,
  botServiceRecords,
  changeBotOwner,
  emitBotUpdate,
  formatBot,
  noSuchBot,
} from './bot-records.js';
export { createBot, type NewBotInput, visibleBots } from './bots.js';
export { apiEmail, avatarChange, avatarUrl, canSeeDeliveryEmail } from './format.js';
export { accountWords, isStrongPassword } from './passwords.js';
export {
  miscPersonalState,
  onboardingStepsState,
} from './personal-state.js';
export {
  displaySettingNames,
  legacyDisplaySettingsState,
  legacyNotificationSettingsState,
  notificationSettingNames,
  realmUserSettingsDefaultsState,
  userSettingsState,
} from './settings-state.js';
export { realmBotState, realmUserState } from './state.js';
export { ensureSystemBot, notificationBot } from './system-bot-accounts.js';
export {
  findSystemBot,
  isSystemBot,
  notificationBotAddress,
  type SystemBotKind,
} from './system-bots.js';
export {
  accessReadableUser,
  accessUserByEmail,
  accessUserById,
  accountCredentials,
  changeFullName,
  changeRole,
  checkEmail,
  checkFullName,
  checkRoleChange,
  createUser,
  deactivateAccount,
  deactivateOwnAccount,
  deactivateUser,
  dropEventQueues,
  getOwnUser,
  getUser,
  getUserByEmail,
  getUserById,
  listUsers,
  type NewUserInput,
  reactivateUser,
  regenerateOwnApiKey,
  regenerateUserApiKey,
  replaceApiKey,
  setUserPassword,
  updateUser,
  updateUserByEmail,
  userByApiEmail,
} from './users.js';
