/**
 * What the server would allow on a message, from the register state alone,
 * following server/messages (edit-plan.ts, delete.ts): the menu offers only
 * these, and the server's refusal is still shown if it disagrees.
 */
import type { ChatState, Message, Subscription, UserGroup } from '../data/model.js';

/** Clients get this much slack past each limit (Zulip's edit_limit_buffer). */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** Zulip's role numbers. */
const ROLE = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 };

/** Group membership that follows from the role alone (system groups). */
const ROLE_GROUPS: Record<string, (role: number) => boolean> = {
  'role:internet': () => true,
  'role:everyone': () => true,
  'role:members': (role) => role <= ROLE.member,
  'role:fullmembers': (role) => role <= ROLE.member,
  'role:moderators': (role) => role <= ROLE.moderator,
  'role:administrators': (role) => role <= ROLE.administrator,
  'role:owners': (role) => role === ROLE.owner,
  'role:nobody': () => false,
};

export interface Person {
  userId: number;
  role: number;
}

function inGroup(
  person: Person,
  groupId: number,
  groups: ReadonlyMap<number, UserGroup>,
  seen = new Set<number>(),
): boolean {
  const group = groups.get(groupId);
  if (!group || group.deactivated || seen.has(groupId)) return false;
  seen.add(groupId);
  const byRole = group.is_system_group ? ROLE_GROUPS[group.name] : undefined;
  if (byRole) return byRole(person.role);
  if (group.members.includes(person.userId)) return true;
  return group.direct_subgroup_ids.some((id) => inGroup(person, id, groups, seen));
}

/** Whether `person` is in a group-setting value as register gives it (a group id or an anonymous group). */
export function hasGroupSetting(
  person: Person,
  value: unknown,
  groups: ReadonlyMap<number, UserGroup>,
): boolean {
  if (typeof value === 'number') return inGroup(person, value, groups);
  if (typeof value === 'string') return ROLE_GROUPS[value]?.(person.role) ?? false;
  if (value && typeof value === 'object') {
    const anonymous = value as { direct_members?: unknown; direct_subgroups?: unknown };
    const members = Array.isArray(anonymous.direct_members) ? anonymous.direct_members : [];
    if (members.includes(person.userId)) return true;
    const subgroups = Array.isArray(anonymous.direct_subgroups) ? anonymous.direct_subgroups : [];
    return subgroups.some((id) => typeof id === 'number' && inGroup(person, id, groups));
  }
  return false;
}

export interface MessagePermissions {
  editContent: boolean;
  editTopic: boolean;
  moveChannel: boolean;
  delete: boolean;
  /** Mark the message's topic as resolved or unresolved (a rename to or from "✔ "). */
  resolveTopic: boolean;
}

const NONE: MessagePermissions = {
  editContent: false,
  editTopic: false,
  moveChannel: false,
  delete: false,
  resolveTopic: false,
};

/** A realm setting from register, by its `realm_`-prefixed name or the bare one. */
function realmSetting(state: ChatState, name: string): unknown {
  const settings = state.realm.settings;
  return `realm_${name}` in settings ? settings[`realm_${name}`] : settings[name];
}

/**
 * Within a limit in seconds (null or absent: no limit). Edits and moves get
 * the buffer; deletion does not (as on the server).
 */
function withinLimit(
  limit: unknown,
  ageSeconds: number,
  buffer = EDIT_LIMIT_BUFFER_SECONDS,
): boolean {
  if (limit === null || limit === undefined) return true;
  return typeof limit === 'number' && ageSeconds <= limit + buffer;
}

/** `groups` stands in when the state does not keep them. */
export function messagePermissions(
  message: Message,
  state: ChatState,
  nowSeconds: number,
  groupsFallback: ReadonlyMap<number, UserGroup> = new Map(),
): MessagePermissions {
  const me = state.users.get(state.ownUserId);
  // Not yet confirmed by the server: nothing to act on.
  if (!me || message.local_id !== undefined) return NONE;
  const person: Person = { userId: me.user_id, role: me.role };
  const groups = state.groups ?? groupsFallback;
  const isAdmin = me.role <= ROLE.administrator;
  const isModerator = me.role <= ROLE.moderator;
  const age = nowSeconds - message.timestamp;
  const isChannel = message.type === 'stream' && message.stream_id !== undefined;
  const channel: Subscription | Record<string, unknown> | undefined = isChannel
    ? (state.subscriptions.get(message.stream_id!) ?? state.channels.get(message.stream_id!))
    : undefined;
  const realmAllows = (setting: string) =>
    hasGroupSetting(person, realmSetting(state, setting), groups);
  const channelAllows = (setting: string) =>
    channel !== undefined && hasGroupSetting(person, channel[setting], groups);
  const organizationOrChannel = (organizationSetting: string, channelSetting: string) =>
    isAdmin ||
    realmAllows(organizationSetting) ||
    channelAllows(channelSetting) ||
    channelAllows('can_administer_channel_group');

  const editContent =
    realmSetting(state, 'allow_message_editing') !== false &&
    message.sender_id === me.user_id &&
    withinLimit(realmSetting(state, 'message_content_edit_limit_seconds'), age);

  const editTopic =
    isChannel &&
    organizationOrChannel(
      'can_move_messages_between_topics_group',
      'can_move_messages_within_channel_group',
    ) &&
    (isModerator ||
      withinLimit(realmSetting(state, 'move_messages_within_stream_limit_seconds'), age));

  const moveChannel =
    isChannel &&
    organizationOrChannel(
      'can_move_messages_between_channels_group',
      'can_move_messages_out_of_channel_group',
    ) &&
    (isModerator ||
      withinLimit(realmSetting(state, 'move_messages_between_streams_limit_seconds'), age));

  let canDelete =
    realmAllows('can_delete_any_message_group') || channelAllows('can_delete_any_message_group');
  // Own messages include those one's bots sent.
  const ownMessage =
    message.sender_id === me.user_id ||
    state.users.get(message.sender_id)?.bot_owner_id === me.user_id;
  if (!canDelete && ownMessage) {
    canDelete =
      (realmAllows('can_delete_own_message_group') ||
        channelAllows('can_delete_own_message_group')) &&
      withinLimit(realmSetting(state, 'message_content_delete_limit_seconds'), age, 0);
  }
  const resolveTopic =
    isChannel && canResolveTopics(state, message.stream_id!, message.subject, groups);
  return { editContent, editTopic, moveChannel, delete: canDelete, resolveTopic };
}

/**
 * Whether the user may mark this topic resolved or unresolved, as the
 * server decides (edit-plan.ts canResolveTopics): an administrator, or in
 * the organization's or the channel's `can_resolve_topics_group`, or a
 * channel administrator; no time limit. General chat cannot be resolved.
 */
export function canResolveTopics(
  state: ChatState,
  channelId: number,
  topic: string,
  groupsFallback: ReadonlyMap<number, UserGroup> = new Map(),
): boolean {
  const me = state.users.get(state.ownUserId);
  if (!me || topic === '') return false;
  if (me.role <= ROLE.administrator) return true;
  const person: Person = { userId: me.user_id, role: me.role };
  const groups = state.groups ?? groupsFallback;
  const channel: Record<string, unknown> | undefined =
    state.subscriptions.get(channelId) ?? state.channels.get(channelId);
  return (
    hasGroupSetting(person, realmSetting(state, 'can_resolve_topics_group'), groups) ||
    (channel !== undefined &&
      (hasGroupSetting(person, channel.can_resolve_topics_group, groups) ||
        hasGroupSetting(person, channel.can_administer_channel_group, groups)))
  );
}
