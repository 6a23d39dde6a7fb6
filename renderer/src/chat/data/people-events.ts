import { type Apply, type EventOf, type Handlers, mapWith, mapWithout } from './event-kit.js';
import type { ChatState, Message, User, UserGroup, UserStatus } from './model.js';
import { replaceMessages } from './model-updates.js';
import { directKey, dmKey, topicKey } from './narrow.js';
import { presenceFrom, withRoleFlags } from './state.js';

/** People events: users, presence, statuses, typing and user groups. */

const onRealmUser: Apply<'realm_user'> = (state, event) => {
  const person = event.person as Partial<User> & {
    user_id: number;
    custom_profile_field?: unknown;
    new_email?: unknown;
  };
  switch (event.op) {
    case 'add':
      return {
        ...state,
        users: mapWith(
          state.users,
          person.user_id,
          withRoleFlags({ ...person, is_active: person.is_active ?? true } as User),
        ),
      };
    case 'remove':
      return { ...state, users: mapWithout(state.users, person.user_id) };
    case 'update': {
      const old = state.users.get(person.user_id);
      if (!old) return state;
      // Fields the user record has (as Zulip's apply_event): the event also names
      // others (avatar_source, avatar_version, ...) a fresh register leaves out.
      const known = Object.entries(person).filter(([key]) => key in old);
      let user: User = { ...old, ...Object.fromEntries(known) };
      if (typeof person.new_email === 'string') user.email = person.new_email;
      if ('role' in person) user = withRoleFlags(user);
      // A deactivated user's custom profile field update names one field.
      if (person.custom_profile_field && typeof person.custom_profile_field === 'object') {
        const field = person.custom_profile_field as {
          id: number;
          value: string | null;
          rendered_value?: string;
        };
        const profile = { ...old.profile_data };
        if (field.value === null) delete profile[field.id];
        else profile[field.id] = { value: field.value, rendered_value: field.rendered_value };
        user = { ...old, profile_data: profile };
      }
      let next = { ...state, users: mapWith(state.users, person.user_id, user) };
      if (person.is_active === false) next = withoutGroupMember(next, person.user_id);
      // Messages carry their sender's name and picture as they were when fetched.
      const senderChanges: Partial<Message> = {};
      if (typeof person.full_name === 'string') senderChanges.sender_full_name = person.full_name;
      if ('avatar_url' in person) senderChanges.avatar_url = person.avatar_url ?? null;
      if (Object.keys(senderChanges).length === 0) return next;
      const changed = [...state.messages.values()]
        .filter((m) => m.sender_id === person.user_id)
        .map((m) => ({ ...m, ...senderChanges }));
      return replaceMessages(next, changed);
    }
    default:
      return state;
  }
};

/**
 * Deactivated users are members of no group (Zulip's feature level 303):
 * clients drop them from groups and from the anonymous groups that realm and
 * user-group settings name (as Zulip's apply_event).
 */
function withoutGroupMember(state: ChatState, userId: number): ChatState {
  let next = state;
  if (state.groups) {
    let changed = false;
    const groups = new Map(state.groups);
    for (const [id, group] of groups) {
      const members = group.members.includes(userId)
        ? group.members.filter((m) => m !== userId)
        : group.members;
      const settings = withoutSettingMember(group, userId);
      if (members === group.members && !settings) continue;
      groups.set(id, { ...group, ...settings, members });
      changed = true;
    }
    if (changed) next = { ...next, groups };
  }
  const realmSettings = withoutSettingMember(state.realm.settings, userId);
  if (realmSettings) {
    next = {
      ...next,
      realm: { ...next.realm, settings: { ...next.realm.settings, ...realmSettings } },
    };
  }
  return next;
}

/** The settings among `holder`'s fields whose anonymous group names `userId`, without them; null if none. */
function withoutSettingMember(holder: object, userId: number): Record<string, unknown> | null {
  let changed: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(holder)) {
    const members = (value as { direct_members?: unknown } | null)?.direct_members;
    if (!Array.isArray(members) || !members.includes(userId)) continue;
    changed ??= {};
    changed[key] = { ...(value as object), direct_members: members.filter((m) => m !== userId) };
  }
  return changed;
}

/** Custom profile fields redefined: values of fields that are gone go too. */
const onCustomProfileFields: Apply<'custom_profile_fields'> = (state, event) => {
  const ids = new Set((event.fields as { id: number }[]).map((f) => String(f.id)));
  let users = state.users;
  for (const [id, user] of state.users) {
    const profile = user.profile_data as Record<string, unknown> | undefined;
    if (!profile || Object.keys(profile).every((key) => ids.has(key))) continue;
    const kept = Object.fromEntries(
      Object.entries(profile).filter(([key]) => ids.has(key)),
    ) as NonNullable<User['profile_data']>;
    users = mapWith(users, id, { ...user, profile_data: kept });
  }
  return users === state.users ? state : { ...state, users };
};

const onPresence: Apply<'presence'> = (state, event, ctx) => {
  const presence = new Map(state.presence);
  if (event.presences && typeof event.presences === 'object') {
    for (const [id, times] of Object.entries(event.presences)) {
      presence.set(Number(id), presenceFrom(times as object, ctx.nowSecs));
    }
  } else if (typeof event.user_id === 'number') {
    // The legacy shape: per client, a status and when it was reported.
    let active = 0;
    let idle = 0;
    for (const report of Object.values(event.presence ?? {}) as {
      status: string;
      timestamp: number;
    }[]) {
      if (report.status === 'active') active = Math.max(active, report.timestamp);
      else idle = Math.max(idle, report.timestamp);
    }
    presence.set(
      event.user_id,
      presenceFrom(
        { active_timestamp: active, idle_timestamp: Math.max(active, idle) },
        ctx.nowSecs,
      ),
    );
  }
  return { ...state, presence };
};

const onUserStatus: Apply<'user_status'> = (state, event) => {
  const old = state.userStatus.get(event.user_id!) ?? {};
  const status: UserStatus = { ...old };
  for (const key of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type', 'away'] as const) {
    if (key in event) (status as Record<string, unknown>)[key] = event[key];
  }
  // Zulip clears a field with an empty string.
  for (const key of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type'] as const) {
    if (status[key] === '') delete status[key];
  }
  // No emoji, no emoji type either (Zulip's apply_event drops it with the name).
  if (event.emoji_name === '') delete status.reaction_type;
  if (status.away === false) delete status.away;
  const userStatus =
    Object.keys(status).length === 0
      ? mapWithout(state.userStatus, event.user_id!)
      : mapWith(state.userStatus, event.user_id!, status);
  return { ...state, userStatus };
};

/** The conversation a typing notice is about (`typing` keys). */
export function typingKey(event: EventOf<'typing'>, ownUserId: number): string | null {
  if (event.message_type === 'stream') {
    if (typeof event.stream_id !== 'number' || typeof event.topic !== 'string') return null;
    return topicKey(event.stream_id, event.topic);
  }
  const recipients = (event.recipients as { user_id: number }[] | undefined) ?? [];
  return directKey(
    dmKey(
      recipients.map((r) => r.user_id),
      ownUserId,
    ),
  );
}

const onTyping: Apply<'typing'> = (state, event, ctx) => {
  const key = typingKey(event, state.ownUserId);
  const userId = event.sender?.user_id as number | undefined;
  if (key === null || userId === undefined || userId === state.ownUserId) return state;
  const op = event.op === 'start' ? 'start' : 'stop';
  ctx.effects.typing.push({ key, userId, op });
  return withTyping(state, key, userId, op === 'start');
};

/** Adds or removes a typist of a conversation. */
export function withTyping(
  state: ChatState,
  key: string,
  userId: number,
  typing: boolean,
): ChatState {
  const current = state.typing.get(key) ?? [];
  if (current.includes(userId) === typing) return state;
  const next = typing ? [...current, userId] : current.filter((id) => id !== userId);
  return {
    ...state,
    typing: next.length > 0 ? mapWith(state.typing, key, next) : mapWithout(state.typing, key),
  };
}

const onUserGroup: Apply<'user_group'> = (state, event) => {
  const groups = state.groups ?? new Map<number, UserGroup>();
  if (event.op === 'add') {
    const added = event.group as UserGroup;
    return { ...state, groups: mapWith(groups, added.id, added) };
  }
  if (event.op === 'remove') return { ...state, groups: mapWithout(groups, event.group_id!) };
  // Every op but `add` names the group by id.
  const old = groups.get((event as { group_id: number }).group_id);
  if (!old) return state;
  const without = (list: number[], gone: number[]) => list.filter((id) => !gone.includes(id));
  const withAll = (list: number[], added: number[]) => [...new Set([...list, ...added])];
  let group: UserGroup;
  switch (event.op) {
    case 'update':
      group = { ...old, ...event.data };
      break;
    case 'add_members':
      group = { ...old, members: withAll(old.members, event.user_ids!) };
      break;
    case 'remove_members':
      group = { ...old, members: without(old.members, event.user_ids!) };
      break;
    case 'add_subgroups':
      group = {
        ...old,
        direct_subgroup_ids: withAll(old.direct_subgroup_ids, event.direct_subgroup_ids!),
      };
      break;
    case 'remove_subgroups':
      group = {
        ...old,
        direct_subgroup_ids: without(old.direct_subgroup_ids, event.direct_subgroup_ids!),
      };
      break;
    default:
      return state;
  }
  return { ...state, groups: mapWith(groups, group.id, group) };
};

export const peopleHandlers: Handlers = {
  realm_user: onRealmUser,
  custom_profile_fields: onCustomProfileFields,
  presence: onPresence,
  user_status: onUserStatus,
  typing: onTyping,
  user_group: onUserGroup,
};
