import { allChannelFolders } from '../db/queries/channel-folders.js';
import type { StateProvider } from '../events/state-provider.js';
import { formatChannelFolder } from './folders.js';

/** POST /register's `channel_folders`: every folder, archived ones included, in order. */
export const channelFoldersState: StateProvider = {
  fetchTypes: ['channel_folders'],
  fetch: (ctx) => ({ channel_folders: allChannelFolders(ctx.db).map(formatChannelFolder) }),
};
