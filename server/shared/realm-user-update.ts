import type { EventBody, Served } from './zulip-api/index.js';

/**
 * The `realm_user` update event: one builder for every area that changes a
 * user (users, bots, settings, avatars, profile fields). Pure: the event says
 * which user changed and exactly the fields that changed, in the shapes of
 * Zulip's `realm_user` op `update` (each variant carries `user_id` and only its
 * own fields); whom it goes to is the caller's decision.
 */

/** The description's variants of the update event's `person`, each with every field present. */
type PersonVariant = EventBody<'realm_user', 'update'>['person'] extends infer P
  ? P extends unknown
    ? Served<P>
    : never
  : never;

/** What changed: one of Zulip's variants of the update event's `person`, less its `user_id`. */
export type PersonChange = PersonVariant extends infer P
  ? P extends unknown
    ? Omit<P, 'user_id'>
    : never
  : never;

export type RealmUserUpdateEvent = EventBody<'realm_user', 'update'> & {
  person: PersonVariant;
};

export function realmUserUpdate(userId: number, change: PersonChange): RealmUserUpdateEvent {
  return {
    type: 'realm_user',
    op: 'update',
    person: { user_id: userId, ...change },
  } satisfies RealmUserUpdateEvent;
}
