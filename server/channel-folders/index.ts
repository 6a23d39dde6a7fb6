/** Channel folders: the organization's named groups of channels (administrators), their `channel_folder` events and state. */
export {
  accessChannelFolder,
  createChannelFolder,
  formatChannelFolder,
  invalidChannelFolder,
  listChannelFolders,
  reorderChannelFolders,
  updateChannelFolder,
} from './folders.js';
export { channelFoldersState } from './state.js';
