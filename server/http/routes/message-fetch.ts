import { z } from 'zod';
import type { AppContext } from '../../core/context.js';
import type { UserRow } from '../../db/queries/users.js';
import { getMessage, getMessages, matchesNarrow } from '../../messages/index.js';
import { parseNarrow } from '../../narrow/index.js';
import { undescribed, WHY } from '../api-link.js';
import { type ParsedParams, p } from '../params.js';
import { type Route, route } from '../route.js';

/** A JSON narrow in either wire form, checked and canonicalized by the narrow engine. */
const narrowParam = p.json(z.unknown()).refine((raw) => parseNarrow(raw));

const messageIdList = p.json(z.array(z.number().int()));

const matchesNarrowParams = { msg_ids: messageIdList, narrow: narrowParam };

const matchesNarrowHandler = (
  ctx: AppContext,
  user: UserRow,
  params: ParsedParams<typeof matchesNarrowParams>,
) => matchesNarrow(ctx, user, { messageIds: params.msg_ids, narrow: params.narrow });

/** GET /messages, GET /messages/{id}, /messages/matches_narrow */
export const messageFetchRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/messages',
    api: '/messages',
    // In the (alphabetical) order of Zulip's get_messages_backend.
    params: {
      allow_empty_topic_name: p.bool().default(false),
      anchor: p.str().optional(),
      apply_markdown: p.bool().default(true),
      client_gravatar: p.bool().default(true),
      message_ids: messageIdList.optional(),
      include_anchor: p.bool().optional(),
      narrow: narrowParam.default([]),
      num_after: p.int().optional(),
      num_before: p.int().optional(),
      use_first_unread_anchor: p.bool().optional(),
    },
    handler: (ctx, user, params) =>
      getMessages(ctx, user, {
        anchor: params.anchor,
        numBefore: params.num_before,
        numAfter: params.num_after,
        includeAnchor: params.include_anchor,
        useFirstUnreadAnchor: params.use_first_unread_anchor,
        narrow: params.narrow,
        messageIds: params.message_ids,
        applyMarkdown: params.apply_markdown,
        allowEmptyTopicName: params.allow_empty_topic_name,
      }),
  }),
  route({
    method: 'GET',
    path: '/messages/matches_narrow',
    api: '/messages/matches_narrow',
    params: matchesNarrowParams,
    handler: matchesNarrowHandler,
  }),
  route({
    method: 'POST',
    path: '/messages/matches_narrow',
    api: undescribed(WHY.undescribed),
    params: matchesNarrowParams,
    handler: matchesNarrowHandler,
  }),
  route({
    method: 'GET',
    path: '/messages/:message_id(^\\d+)',
    api: '/messages/{message_id}',
    params: {
      message_id: p.int(),
      apply_markdown: p.bool().default(true),
      allow_empty_topic_name: p.bool().default(false),
    },
    handler: (ctx, user, params) =>
      getMessage(ctx, user, params.message_id, {
        applyMarkdown: params.apply_markdown,
        allowEmptyTopicName: params.allow_empty_topic_name,
      }),
  }),
];
