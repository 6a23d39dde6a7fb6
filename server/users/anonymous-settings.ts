import type { AppContext, Tx } from '../core/context.js';
import { allGroups } from '../db/queries/user-groups.js';
import { apiGroupSettingValue, loadRealm } from '../shared/realm.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { groupEventPayload } from './group-event-payload.js';

/**
 * Settings whose value is an anonymous group (`{direct_members,
 * direct_subgroups}`) name only active users (apiGroupSettingValue), so a
 * user's deactivation or reactivation changes every such setting they are a
 * direct member of. Zulip's send_update_events_for_anonymous_group_settings
 * resends each one: a user group's setting as `user_group` `update`, an
 * organization's as `realm` `update_dict`. Channel settings get no event
 * (Zulip sends none; Hearth keeps their stored members, see
 * docs/zulip-exactness.md).
 */

type Stored = Record<string, unknown>;

const namesUser = (value: unknown, userId: number): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as { direct_members?: unknown }).direct_members) &&
  (value as { direct_members: unknown[] }).direct_members.includes(userId);

function storedOverrides(json: string): Stored {
  try {
    return JSON.parse(json) as Stored;
  } catch {
    return {};
  }
}

/**
 * Tells `users` the new value of each realm and user-group setting whose
 * anonymous group has `userId` as a direct member; call after the user's
 * `is_active` is written. Events about a deactivated group reach only
 * clients that keep deactivated groups, as every `user_group` event.
 */
export function emitAnonymousSettingsOf(
  ctx: AppContext,
  tx: Tx,
  userId: number,
  users: number[],
): void {
  if (users.length === 0) return;
  for (const [name, value] of Object.entries(storedOverrides(loadRealm(ctx).row.settings))) {
    if (!namesUser(value, userId)) continue;
    tx.emit({
      type: 'realm',
      users,
      payload: {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { [name]: apiGroupSettingValue(ctx, value) },
      } satisfies EventBody<'realm', 'update_dict'>,
    });
  }
  for (const group of allGroups(ctx.db)) {
    for (const [name, value] of Object.entries(storedOverrides(group.permissions))) {
      if (!namesUser(value, userId)) continue;
      const event = {
        type: 'user_group' as const,
        op: 'update' as const,
        group_id: group.id,
        data: { [name]: apiGroupSettingValue(ctx, value) },
      } satisfies EventBody<'user_group', 'update'>;
      tx.emit({
        type: 'user_group',
        users,
        payload: groupEventPayload(group.deactivated, event),
      });
    }
  }
}
