import { z } from 'zod';
import { MAX_CHANNEL_DESCRIPTION_LENGTH } from '../../shared/limits.js';
import {
  listSubscriptions,
  subscribe,
  subscriptionStatus,
  unsubscribe,
  updateSubscriptionProperties,
} from '../../subscriptions/index.js';
import { p } from '../params.js';
import { route } from '../route.js';
import { channelCreationParams, creationOptions } from './channels.js';

/** User ids (preferred) or API e-mail addresses, never mixed. */
const principals = p.json(z.union([z.array(z.int()), z.array(z.string())]));

/** Zulip reads `value` as a JSON boolean when it is one, else as the plain text. */
const propertyValue = p.custom<boolean | string>('bool_or_string', (raw) => {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'boolean') return parsed;
  } catch {
    // Plain text, e.g. a colour.
  }
  return raw;
});

/** /users/me/subscriptions and friends */
export const subscriptionRoutes = [
  route({
    method: 'GET',
    path: '/users/me/subscriptions',
    params: {
      include_subscribers: p.oneOf(['true', 'false', 'partial'] as const).default('false'),
    },
    handler: (ctx, user, params) =>
      listSubscriptions(ctx, user, params.include_subscribers !== 'false'),
  }),
  route({
    method: 'POST',
    path: '/users/me/subscriptions',
    params: {
      subscriptions: p.json(
        z.array(
          z.object({
            name: z.string(),
            color: z.string().optional(),
            description: z.string().max(MAX_CHANNEL_DESCRIPTION_LENGTH).optional(),
          }),
        ),
      ),
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
    params: { subscriptions: p.json(z.array(z.string())), principals: principals.optional() },
    handler: (ctx, user, params) => unsubscribe(ctx, user, params.subscriptions, params.principals),
  }),
  route({
    method: 'GET',
    path: '/users/:user_id(^\\d+)/subscriptions/:stream_id(^\\d+)',
    params: { user_id: p.int(), stream_id: p.int() },
    handler: (ctx, user, params) => subscriptionStatus(ctx, user, params.user_id, params.stream_id),
  }),
  route({
    method: 'POST',
    path: '/users/me/subscriptions/properties',
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
  // The single-channel form: POST in the spec, PATCH in Zulip.
  ...(['POST', 'PATCH'] as const).map((method) =>
    route({
      method,
      path: '/users/me/subscriptions/:stream_id(^\\d+)',
      params: { stream_id: p.int(), property: p.str(), value: propertyValue },
      handler: (ctx, user, params) =>
        updateSubscriptionProperties(ctx, user, [
          { stream_id: params.stream_id, property: params.property, value: params.value },
        ]),
    }),
  ),
];
