import { z } from 'zod';
import type { ChannelCreationOptions, ChannelPermission } from '../../channels/index.js';
import {
  archiveChannel,
  getChannel,
  getChannelEmailAddress,
  getChannelId,
  getChannelMembers,
  getChannelTopics,
  groupSettingChangeSchema,
  groupSettingValueSchema,
  listChannels,
  updateChannel,
} from '../../channels/index.js';
import { MAX_CHANNEL_DESCRIPTION_LENGTH } from '../../shared/limits.js';
import { createChannel } from '../../subscriptions/index.js';
import { WHY } from '../api-link.js';
import { type ParsedParams, p } from '../params.js';
import { route } from '../route.js';

const streamId = p.int();

/** `unlimited` / `realm_default` (bare or JSON-quoted) or a JSON integer; the action checks it. */
const retentionDays = p.custom('retention', (raw): string | number => {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'number' || typeof parsed === 'string') return parsed;
  } catch {
    // A bare word.
  }
  return raw;
});

const groupValue = () => p.json(groupSettingValueSchema).optional();
const groupChange = () => p.json(groupSettingChangeSchema).optional();

/** Channel group settings as creation values (a group id or an anonymous group). */
const groupSettingParams = {
  can_add_subscribers_group: groupValue(),
  can_administer_channel_group: groupValue(),
  can_create_topic_group: groupValue(),
  can_delete_any_message_group: groupValue(),
  can_delete_own_message_group: groupValue(),
  can_move_messages_out_of_channel_group: groupValue(),
  can_move_messages_within_channel_group: groupValue(),
  can_remove_subscribers_group: groupValue(),
  can_resolve_topics_group: groupValue(),
  can_send_message_group: groupValue(),
  can_subscribe_group: groupValue(),
};

/** Channel group settings as PATCH changes ({new, old}). */
const groupSettingChangeParams = {
  can_add_subscribers_group: groupChange(),
  can_administer_channel_group: groupChange(),
  can_create_topic_group: groupChange(),
  can_delete_any_message_group: groupChange(),
  can_delete_own_message_group: groupChange(),
  can_move_messages_out_of_channel_group: groupChange(),
  can_move_messages_within_channel_group: groupChange(),
  can_remove_subscribers_group: groupChange(),
  can_resolve_topics_group: groupChange(),
  can_send_message_group: groupChange(),
  can_subscribe_group: groupChange(),
};

const permissionNames = Object.keys(groupSettingParams) as ChannelPermission[];

/** The settings for channels a request creates (POST /channels/create and /users/me/subscriptions). */
export const channelCreationParams = {
  invite_only: p.bool().default(false),
  is_web_public: p.bool().default(false),
  is_default_stream: p.bool().default(false),
  history_public_to_subscribers: p.bool().optional(),
  message_retention_days: retentionDays.default('realm_default'),
  topics_policy: p.str().optional(),
  folder_id: p.json(z.int().nullable()).optional(),
  announce: p.bool().default(false),
  send_new_subscription_messages: p.bool().default(true),
  ...groupSettingParams,
};

export function creationOptions(
  params: ParsedParams<typeof channelCreationParams>,
): ChannelCreationOptions {
  return {
    inviteOnly: params.invite_only,
    isWebPublic: params.is_web_public,
    isDefaultStream: params.is_default_stream,
    historyPublicToSubscribers: params.history_public_to_subscribers,
    messageRetentionDays: params.message_retention_days,
    topicsPolicy: params.topics_policy,
    folderId: params.folder_id,
    groupSettings: Object.fromEntries(permissionNames.map((name) => [name, params[name]])),
  };
}

const includeFlag = (value: boolean) => p.bool().default(value);

/** /streams, /channels/create, /get_stream_id, /users/me/{stream_id}/topics */
export const channelRoutes = [
  route({
    method: 'GET',
    path: '/streams',
    api: '/streams',
    params: {
      include_public: includeFlag(true),
      include_web_public: includeFlag(false),
      include_subscribed: includeFlag(true),
      exclude_archived: includeFlag(true),
      include_all: includeFlag(false),
      include_all_active: includeFlag(false),
      include_default: includeFlag(false),
      include_owner_subscribed: includeFlag(false),
      include_can_access_content: includeFlag(false),
    },
    handler: (ctx, user, params) =>
      listChannels(ctx, user, {
        includePublic: params.include_public,
        includeWebPublic: params.include_web_public,
        includeSubscribed: params.include_subscribed,
        excludeArchived: params.exclude_archived,
        // The legacy name of include_all.
        includeAll: params.include_all || params.include_all_active,
        includeDefault: params.include_default,
        includeOwnerSubscribed: params.include_owner_subscribed,
        includeCanAccessContent: params.include_can_access_content,
      }),
  }),
  route({
    method: 'GET',
    path: '/streams/:stream_id(^\\d+)',
    api: '/streams/{stream_id}',
    params: { stream_id: streamId },
    handler: (ctx, user, params) => getChannel(ctx, user, params.stream_id),
  }),
  route({
    method: 'PATCH',
    path: '/streams/:stream_id(^\\d+)',
    api: '/streams/{stream_id}',
    differences: {
      'message_retention_days is retention': WHY.retention,
      'folder_id is json': WHY.nullClears,
    },
    params: {
      stream_id: streamId,
      description: p.str({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }).optional(),
      new_name: p.str().optional(),
      is_private: p.bool().optional(),
      is_web_public: p.bool().optional(),
      history_public_to_subscribers: p.bool().optional(),
      is_default_stream: p.bool().optional(),
      message_retention_days: retentionDays.optional(),
      is_archived: p.bool().optional(),
      topics_policy: p.str().optional(),
      folder_id: p.json(z.int().nullable()).optional(),
      ...groupSettingChangeParams,
    },
    handler: (ctx, user, params) =>
      updateChannel(ctx, user, params.stream_id, {
        description: params.description,
        newName: params.new_name,
        isPrivate: params.is_private,
        isWebPublic: params.is_web_public,
        historyPublicToSubscribers: params.history_public_to_subscribers,
        isDefaultStream: params.is_default_stream,
        messageRetentionDays: params.message_retention_days,
        isArchived: params.is_archived,
        topicsPolicy: params.topics_policy,
        folderId: params.folder_id,
        groupSettings: Object.fromEntries(permissionNames.map((name) => [name, params[name]])),
      }),
  }),
  route({
    method: 'DELETE',
    path: '/streams/:stream_id(^\\d+)',
    api: '/streams/{stream_id}',
    params: { stream_id: streamId },
    handler: (ctx, user, params) => archiveChannel(ctx, user, params.stream_id),
  }),
  route({
    method: 'GET',
    path: '/streams/:stream_id(^\\d+)/members',
    api: '/streams/{stream_id}/members',
    params: { stream_id: streamId },
    handler: (ctx, user, params) => getChannelMembers(ctx, user, params.stream_id),
  }),
  route({
    method: 'GET',
    path: '/streams/:stream_id(^\\d+)/email_address',
    api: '/streams/{stream_id}/email_address',
    params: { stream_id: streamId, sender_id: p.int({ min: 0 }).optional() },
    handler: (ctx, user, params) =>
      getChannelEmailAddress(ctx, user, params.stream_id, params.sender_id),
  }),
  route({
    method: 'GET',
    path: '/get_stream_id',
    api: '/get_stream_id',
    params: { stream: p.str() },
    handler: (ctx, user, params) => getChannelId(ctx, user, params.stream),
  }),
  route({
    method: 'GET',
    path: '/users/me/:stream_id(^\\d+)/topics',
    api: '/users/me/{stream_id}/topics',
    params: { stream_id: streamId, allow_empty_topic_name: p.bool().default(false) },
    handler: (ctx, user, params) =>
      getChannelTopics(ctx, user, params.stream_id, params.allow_empty_topic_name),
  }),
  route({
    method: 'POST',
    path: '/channels/create',
    api: '/channels/create',
    differences: {
      'message_retention_days is retention': WHY.retention,
      'folder_id is json': WHY.nullClears,
    },
    params: {
      name: p.str(),
      description: p.str({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }).default(''),
      subscribers: p.json(z.array(z.int())),
      ...channelCreationParams,
    },
    handler: (ctx, user, params) =>
      createChannel(ctx, user, {
        name: params.name,
        description: params.description,
        subscribers: params.subscribers,
        creation: creationOptions(params),
      }),
  }),
];
