import { z } from 'zod';
import { MAX_CHANNEL_DESCRIPTION_LENGTH } from '../../shared/limits.js';
import {
  changeOwnSubscriptions,
  listSubscriptions,
  subscribe,
  subscribedChannelIds,
  subscriptionStatus,
  unsubscribe,
  updateSubscriptionProperties,
} from '../../subscriptions/index.js';
import { undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';
import { channelCreationParams, creationOptions } from './channels.js';

/** User ids (preferred) or API e-mail addresses, never mixed. */
const principals = p.json(z.union([z.array(z.int()), z.array(z.string())]));

/** Zulip reads `value` as a JSON boolean when it is one, else as the plain text. */
const propertyValue = p.custom('bool_or_string', (raw): boolean | string => {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'boolean') return parsed;
  } catch {
    // Plain text, e.g. a colour.
  }
  return raw;
});

const subscriptionRequests = z.array(
  z.object({
    name: z.string(),
    color: z.string().optional(),
    description: z.string().max(MAX_CHANNEL_DESCRIPTION_LENGTH).optional(),
  }),
);

/** /users/me/subscriptions and friends */
export const subscriptionRoutes = [
  route({
    method: 'GET',
    path: '/users/me/subscriptions',
    api: '/users/me/subscriptions',
    params: {
      include_subscribers: p.oneOf(['true', 'false', 'partial'] as const).default('false'),
    },
    handler: (ctx, user, params) =>
      listSubscriptions(ctx, user, params.include_subscribers !== 'false'),
  }),
  route({
    method: 'POST',
    path: '/users/me/subscriptions',
    api: '/users/me/subscriptions',
    differences: {
      'message_retention_days is retention': WHY.retention,
      'folder_id is json': WHY.nullClears,
    },
    params: {
      subscriptions: p.json(subscriptionRequests),
      principals: principals.optional(),
      authorization_errors_fatal: p.bool().default(true),
      ...channelCreationParams,
    },
    handler: (ctx, user, params) =>
      subscribe(ctx, user, {
        subscriptions: params.subscriptions,
        principals: params.principals,
        authorizationErrorsFatal: params.authorization_errors_fatal,
        creation: creationOptions(params),
        sendNewSubscriptionMessages: params.send_new_subscription_messages,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/users/me/subscriptions',
    api: '/users/me/subscriptions',
    params: { subscriptions: p.json(z.array(z.string())), principals: principals.optional() },
    handler: (ctx, user, params) => unsubscribe(ctx, user, params.subscriptions, params.principals),
  }),
  route({
    method: 'PATCH',
    path: '/users/me/subscriptions',
    api: '/users/me/subscriptions',
    params: {
      add: p.json(subscriptionRequests).default([]),
      delete: p.json(z.array(z.string())).default([]),
    },
    handler: (ctx, user, params) => changeOwnSubscriptions(ctx, user, params.add, params.delete),
  }),
  route({
    method: 'GET',
    path: '/users/:user_id(^\\d+)/channels',
    api: undescribed(WHY.undescribed),
    params: { user_id: p.int() },
    handler: (ctx, user, params) => subscribedChannelIds(ctx, user, params.user_id),
  }),
  route({
    method: 'GET',
    path: '/users/:user_id(^\\d+)/subscriptions/:stream_id(^\\d+)',
    api: '/users/{user_id}/subscriptions/{stream_id}',
    params: { user_id: p.int(), stream_id: p.int() },
    handler: (ctx, user, params) => subscriptionStatus(ctx, user, params.user_id, params.stream_id),
  }),
  route({
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    api: '/users/me/subscriptions/properties',
    params: {
      subscription_data: p.json(
        z.array(
          z.object({
            stream_id: z.int(),
            property: z.string(),
            value: z.union([z.boolean(), z.string()]),
          }),
        ),
      ),
    },
    handler: (ctx, user, params) =>
      updateSubscriptionProperties(ctx, user, params.subscription_data),
  }),
  // Zulip's legacy update_subscriptions_property answers PATCH; POST is kept for old callers.
  ...(['PATCH', 'POST'] as const).map((method) =>
    route({
      method,
      path: '/users/me/subscriptions/:stream_id(^\\d+)',
      api: undescribed(WHY.legacyUrl),
      params: { stream_id: p.int(), property: p.str(), value: propertyValue },
      handler: (ctx, user, params) =>
        updateSubscriptionProperties(ctx, user, [
          { stream_id: params.stream_id, property: params.property, value: params.value },
        ]),
    }),
  ),
];
