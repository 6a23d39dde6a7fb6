import { z } from 'zod';
import {
  markAllAsRead,
  markStreamAsRead,
  markTopicAsRead,
  readReceipts,
  updateMessageFlags,
  updateMessageFlagsForNarrow,
} from '../../flags/index.js';
import { parseNarrow } from '../../narrow/index.js';
import { MAX_TOPIC_LENGTH } from '../../shared/limits.js';
import { updateMutedTopic, updateUserTopic } from '../../topics/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

/**
 * /messages/flags, /messages/flags/narrow, /messages/{id}/read_receipts, /mark_*_as_read, /user_topics and
 * the deprecated /users/me/subscriptions/muted_topics.
 */
export const flagRoutes = [
  route({
    method: 'GET',
    path: '/messages/:message_id(^\\d+)/read_receipts',
    api: '/messages/{message_id}/read_receipts',
    params: { message_id: p.int({ min: 0 }) },
    handler: (ctx, user, params) => readReceipts(ctx, user, params.message_id),
  }),
  route({
    method: 'POST',
    path: '/messages/flags',
    api: '/messages/flags',
    groupCommit: true,
    // Zulip's (alphabetical) order.
    params: {
      flag: p.str(),
      messages: p.json(z.array(z.int())),
      op: p.str(),
    },
    handler: (ctx, user, params) =>
      updateMessageFlags(ctx, user, {
        messages: params.messages,
        op: params.op,
        flag: params.flag,
      }),
  }),
  route({
    method: 'POST',
    path: '/messages/flags/narrow',
    api: '/messages/flags/narrow',
    // Zulip's (alphabetical) order.
    params: {
      anchor: p.str(),
      flag: p.str(),
      include_anchor: p.bool().default(true),
      narrow: p.json(z.unknown()).refine((raw) => parseNarrow(raw)),
      num_after: p.int({ min: 0 }),
      num_before: p.int({ min: 0 }),
      op: p.str(),
    },
    handler: (ctx, user, params) =>
      updateMessageFlagsForNarrow(ctx, user, {
        anchor: params.anchor,
        includeAnchor: params.include_anchor,
        numBefore: params.num_before,
        numAfter: params.num_after,
        narrow: params.narrow,
        op: params.op,
        flag: params.flag,
      }),
  }),
  route({
    method: 'POST',
    path: '/mark_all_as_read',
    api: '/mark_all_as_read',
    params: {},
    handler: (ctx, user) => markAllAsRead(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/mark_stream_as_read',
    api: '/mark_stream_as_read',
    params: { stream_id: p.int() },
    handler: (ctx, user, params) => markStreamAsRead(ctx, user, params.stream_id),
  }),
  route({
    method: 'POST',
    path: '/mark_topic_as_read',
    api: '/mark_topic_as_read',
    // Zulip's mark_topic_as_read declares topic_name first.
    params: { topic_name: p.str(), stream_id: p.int() },
    handler: (ctx, user, params) =>
      markTopicAsRead(ctx, user, { streamId: params.stream_id, topicName: params.topic_name }),
  }),
  route({
    method: 'POST',
    path: '/user_topics',
    api: '/user_topics',
    params: {
      stream_id: p.int(),
      topic: p.str({ maxLength: MAX_TOPIC_LENGTH }),
      visibility_policy: p.int({ min: 0, max: 3 }),
    },
    handler: (ctx, user, params) =>
      updateUserTopic(ctx, user, {
        streamId: params.stream_id,
        topic: params.topic,
        visibilityPolicy: params.visibility_policy,
      }),
  }),
  route({
    method: 'PATCH',
    path: '/users/me/subscriptions/muted_topics',
    api: '/users/me/subscriptions/muted_topics',
    params: {
      stream_id: p.int().optional(),
      stream: p.str().optional(),
      topic: p.str({ maxLength: MAX_TOPIC_LENGTH }),
      op: p.oneOf(['add', 'remove'] as const),
    },
    handler: (ctx, user, params) =>
      updateMutedTopic(ctx, user, {
        streamId: params.stream_id,
        streamName: params.stream,
        topic: params.topic,
        op: params.op,
      }),
  }),
];
