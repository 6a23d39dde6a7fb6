/** Default channels: the ones every new account is subscribed to; POST/DELETE /default_streams and their state. */
export { addDefaultChannel, defaultChannels, removeDefaultChannel } from './default-channels.js';
export { defaultStreamGroupsState, defaultStreamsState } from './state.js';
