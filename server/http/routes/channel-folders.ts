import { z } from 'zod';
import {
  createChannelFolder,
  listChannelFolders,
  reorderChannelFolders,
  updateChannelFolder,
} from '../../channel-folders/index.js';
import {
  MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH,
  MAX_CHANNEL_FOLDER_NAME_LENGTH,
} from '../../shared/limits.js';
import { WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

const name = p.str({ maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH });
const description = p.str({ maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH });

/** /channel_folders */
export const channelFolderRoutes = [
  route({
    method: 'POST',
    path: '/channel_folders/create',
    api: '/channel_folders/create',
    differences: {
      'name is required': WHY.descriptionLax,
      'description is required': WHY.descriptionLax,
    },
    params: { name, description },
    handler: (ctx, user, params) =>
      createChannelFolder(ctx, user, { name: params.name, description: params.description }),
  }),
  route({
    method: 'GET',
    path: '/channel_folders',
    api: '/channel_folders',
    params: { include_archived: p.bool().default(false) },
    handler: (ctx, _user, params) => listChannelFolders(ctx, params.include_archived),
  }),
  route({
    method: 'PATCH',
    path: '/channel_folders',
    api: '/channel_folders',
    differences: {
      'order is required': WHY.descriptionLax,
    },
    params: { order: p.json(z.array(z.int())) },
    handler: (ctx, user, params) => reorderChannelFolders(ctx, user, params.order),
  }),
  route({
    method: 'PATCH',
    path: '/channel_folders/:channel_folder_id(^\\d+)',
    api: '/channel_folders/{channel_folder_id}',
    params: {
      channel_folder_id: p.int(),
      name: name.optional(),
      description: description.optional(),
      is_archived: p.bool().optional(),
    },
    handler: (ctx, user, params) =>
      updateChannelFolder(ctx, user, params.channel_folder_id, {
        name: params.name,
        description: params.description,
        isArchived: params.is_archived,
      }),
  }),
];
