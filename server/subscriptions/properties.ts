import { accessChannelById } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  type SubscriptionSettingColumn,
  setSubscriptionSetting,
  subscriptionOf,
} from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { checkColor } from './subscriptions.js';

export interface SubscriptionPropertyChange {
  stream_id: number;
  property: string;
  value: boolean | string;
}

const booleanProperties = new Set([
  'in_home_view',
  'is_muted',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'pin_to_top',
  'wildcard_mentions_notify',
]);

/** Zulip's SubscriptionPropertyChangeRequest validation. */
function checkChange(change: SubscriptionPropertyChange): SubscriptionPropertyChange {
  if (change.property === 'color') {
    return { ...change, value: checkColor('color', change.value) };
  }
  if (booleanProperties.has(change.property)) {
    if (typeof change.value !== 'boolean') {
      throw badRequest(`${change.property} is not a boolean`);
    }
    return change;
  }
  throw badRequest(`Unknown subscription property: ${change.property}`);
}

/**
 * POST /users/me/subscriptions/properties (and the single-channel form).
 * Every change is checked before any is written. A mute change is stored as
 * is_muted and announced twice, as in_home_view and then as is_muted.
 */
export function updateSubscriptionProperties(
  ctx: AppContext,
  user: UserRow,
  changes: SubscriptionPropertyChange[],
): Record<string, never> {
  const checked = changes.map(checkChange);
  for (const change of checked) {
    accessChannelById(ctx, user, change.stream_id);
    if (subscriptionOf(ctx.db, change.stream_id, user.id)?.active !== 1) {
      throw badRequest(`Not subscribed to channel ID ${change.stream_id}`);
    }
  }
  ctx.transaction((tx) => {
    const emit = (streamId: number, property: string, value: boolean | string) =>
      tx.emit({
        type: 'subscription',
        users: [user.id],
        payload: {
          type: 'subscription',
          op: 'update',
          property,
          value,
          stream_id: streamId,
        } satisfies EventBody<'subscription', 'update'>,
      });
    for (const { stream_id, property, value } of checked) {
      if (property === 'in_home_view' || property === 'is_muted') {
        const muted = property === 'is_muted' ? value === true : value === false;
        setSubscriptionSetting(ctx.db, stream_id, user.id, 'is_muted', muted ? 1 : 0);
        emit(stream_id, 'in_home_view', !muted);
        emit(stream_id, 'is_muted', muted);
      } else if (property === 'color') {
        setSubscriptionSetting(ctx.db, stream_id, user.id, 'color', value as string);
        emit(stream_id, property, value);
      } else {
        const column = property as SubscriptionSettingColumn;
        setSubscriptionSetting(ctx.db, stream_id, user.id, column, value ? 1 : 0);
        emit(stream_id, property, value);
      }
    }
  });
  return {};
}
