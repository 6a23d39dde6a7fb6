/**
 * The `realm_user` update event: one builder for every area that changes a
 * user (users, bots, settings, avatars, profile fields). Pure: the event says
 * which user changed and exactly the fields that changed, in the shapes of
 * Zulip's `realm_user` op `update` (each variant carries `user_id` and only its
 * own fields); whom it goes to is the caller's decision.
 */

/** What changed: one of Zulip's variants of the update event's `person`. */
export type PersonChange =
  | { full_name: string }
  | { role: number }
  | { is_active: boolean }
  | { bot_owner_id: number }
  | { timezone: string; email: string }
  | { delivery_email: string | null }
  | { new_email: string }
  | {
      avatar_source: string;
      avatar_url: string;
      avatar_url_medium: string;
      avatar_version: number;
    }
  | {
      custom_profile_field: { id: number; value: string | null; rendered_value?: string };
    };

export type RealmUserUpdateEvent = {
  type: 'realm_user';
  op: 'update';
  person: { user_id: number } & PersonChange;
};

export function realmUserUpdate(userId: number, change: PersonChange): RealmUserUpdateEvent {
  return { type: 'realm_user', op: 'update', person: { user_id: userId, ...change } };
}
