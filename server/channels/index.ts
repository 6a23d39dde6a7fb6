/** Channels: permissions and access, names, formatting, create/update/archive, channel events, and what a change to a user reveals or hides. */
export {
  archiveChannel,
  getChannel,
  getChannelId,
  getChannelMembers,
  getChannelTopics,
  listChannels,
  listChannelsJson,
} from './channels.js';
export type { ChannelBlueprint, ChannelCreationOptions } from './create.js';
export {
  checkNewChannelName,
  emitDefaultStreams,
  insertChannel,
  normalizeDescription,
  plainChannelOptions,
  prepareChannelCreation,
} from './create.js';
export { getChannelEmailAddress } from './email-address.js';
export { cannotPostInChannel } from './errors.js';
export { emitChannelCreated, emitChannelGone, emitPeerChange } from './events.js';
export {
  channelJson,
  type FormattedChannel,
  formattedChannels,
  subscriptionJson,
} from './formatted.js';
export { groupSettingChangeSchema, groupSettingValueSchema } from './group-permissions.js';
export type { ChannelPermission } from './rules.js';
export {
  accessChannelById,
  accessChannelByName,
  channelPermissionDefaults,
  checkCanPost,
  checkChannelName,
  effectiveTopicsPolicy,
  formatChannel,
  formatSubscription,
  hasChannelPermission,
  hasContentAccess,
  hasMetadataAccess,
  hasOrganizationOrChannelPermission,
  invalidChannelId,
  isSubscribed,
  pickColor,
} from './rules.js';
export { sharingWeeklyTraffic, weeklyTraffic } from './traffic.js';
export { updateChannel } from './update.js';
export {
  channelsVisibleTo,
  emitRoleVisibilityChange,
  emitSubscriberActivation,
} from './visibility.js';
