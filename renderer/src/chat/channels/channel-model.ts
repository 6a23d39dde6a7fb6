/**
 * Channel rules the chat view needs before asking the server: who may create
 * which kind of channel (Zulip's group settings), what the channel browser
 * lists, and which topic visibility choices a menu offers. Pure: no DOM, so
 * it is unit-tested in node. The server decides in the end; these only keep
 * the view from offering what it would refuse.
 */
import type { Channel, ChatState, User, UserTopic, VisibilityPolicy } from '../data/model.js';
import { foldForSearch } from '../people/people-model.js';

/** A group-setting value as register and events give it: a group id or an anonymous group. */
export type GroupSettingValue =
  | number
  | { direct_members: number[]; direct_subgroups: number[] }
  | string;

/** The parts of `GET /user_groups` the permission check uses. */
export interface UserGroup {
  id: number;
  name: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  deactivated?: boolean;
}

/** System groups follow from the role alone (as the server decides them). */
const ROLE_GROUPS: Record<string, (role: number) => boolean> = {
  'role:internet': () => true,
  'role:everyone': () => true,
  'role:members': (role) => role <= 400,
  'role:fullmembers': (role) => role <= 400,
  'role:moderators': (role) => role <= 300,
  'role:administrators': (role) => role <= 200,
  'role:owners': (role) => role === 100,
  'role:nobody': () => false,
};

function inGroup(
  user: Pick<User, 'user_id' | 'role'>,
  groupId: number,
  groups: Map<number, UserGroup>,
  seen: Set<number>,
): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const group = groups.get(groupId);
  if (!group || group.deactivated) return false;
  const byRole = group.is_system_group ? ROLE_GROUPS[group.name] : undefined;
  if (byRole) return byRole(user.role);
  if (group.members.includes(user.user_id)) return true;
  return group.direct_subgroup_ids.some((id) => inGroup(user, id, groups, seen));
}

/** Is `user` among the users a group-setting value names? Unknown groups count as no. */
export function groupSettingIncludes(
  value: GroupSettingValue | undefined,
  user: Pick<User, 'user_id' | 'role'>,
  groups: Map<number, UserGroup>,
): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') {
    const byRole = ROLE_GROUPS[value];
    if (byRole) return byRole(user.role);
    const named = [...groups.values()].find((group) => group.name === value);
    return named ? inGroup(user, named.id, groups, new Set()) : false;
  }
  if (typeof value === 'number') return inGroup(user, value, groups, new Set());
  if (value.direct_members.includes(user.user_id)) return true;
  const seen = new Set<number>();
  return value.direct_subgroups.some((id) => inGroup(user, id, groups, seen));
}

export type ChannelKind = 'public' | 'private' | 'web_public';

export type CreationRights = Record<ChannelKind, boolean>;

/** A realm setting as register gives it (`realm_` prefix), or as an update event names it. */
function realmSetting(settings: Record<string, unknown>, name: string): unknown {
  return settings[`realm_${name}`] ?? settings[name];
}

/**
 * Which kinds of channel the user may create: Zulip's
 * `can_create_{public,private,web_public}_channel_group`; web-public
 * channels also need spectator access to be on.
 */
export function channelCreationRights(
  user: Pick<User, 'user_id' | 'role'> | undefined,
  realmSettings: Record<string, unknown>,
  groups: Map<number, UserGroup>,
): CreationRights {
  if (!user) return { public: false, private: false, web_public: false };
  const may = (kind: ChannelKind) =>
    groupSettingIncludes(
      realmSetting(realmSettings, `can_create_${kind}_channel_group`) as GroupSettingValue,
      user,
      groups,
    );
  return {
    public: may('public'),
    private: may('private'),
    web_public:
      realmSetting(realmSettings, 'enable_spectator_access') === true && may('web_public'),
  };
}

export type BrowserTab = 'subscribed' | 'available' | 'all';

export interface BrowserRow {
  channel: Channel;
  subscribed: boolean;
}

/**
 * The channel browser's rows: channels the user can see that are not
 * archived, on the chosen tab, matching the filter (in the name, or any
 * word of the description), by name.
 */
export function browserRows(
  state: Pick<ChatState, 'channels' | 'subscriptions'>,
  tab: BrowserTab,
  filter: string,
): BrowserRow[] {
  const query = foldForSearch(filter.trim());
  const byId = new Map<number, Channel>(state.channels);
  // A private channel one is subscribed to is always visible, even if `streams` left it out.
  for (const sub of state.subscriptions.values())
    if (!byId.has(sub.stream_id)) byId.set(sub.stream_id, sub);
  const rows: BrowserRow[] = [];
  for (const channel of byId.values()) {
    if (channel.is_archived) continue;
    const subscribed = state.subscriptions.has(channel.stream_id);
    if (tab === 'subscribed' && !subscribed) continue;
    if (tab === 'available' && subscribed) continue;
    if (
      query &&
      !foldForSearch(channel.name).includes(query) &&
      !foldForSearch(channel.description).includes(query)
    ) {
      continue;
    }
    rows.push({ channel, subscribed });
  }
  const collator = new Intl.Collator(undefined, { sensitivity: 'base' });
  return rows.sort((a, b) => collator.compare(a.channel.name, b.channel.name));
}

/** Zulip compares topic names case-insensitively. */
const sameTopic = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The user's visibility policy for a topic (0, inherit, when none is set). */
export function topicPolicy(
  userTopics: UserTopic[],
  channelId: number,
  topic: string,
): VisibilityPolicy {
  const entry = userTopics.find((t) => t.stream_id === channelId && sameTopic(t.topic_name, topic));
  return entry?.visibility_policy ?? 0;
}

export const Policy = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

export interface TopicChoice {
  label: string;
  policy: VisibilityPolicy;
}

/**
 * The visibility changes a topic menu offers, as Zulip's: in a channel that
 * is not muted, "Mute" or "Unmute" a topic; in a muted channel topics are
 * muted already, so "Unmute" (policy unmuted) or, for an unmuted topic,
 * "Mute" back to the channel's default; and "Follow" or "Unfollow".
 */
export function topicChoices(channelMuted: boolean, current: VisibilityPolicy): TopicChoice[] {
  const choices: TopicChoice[] = [];
  if (channelMuted) {
    if (current === Policy.unmuted || current === Policy.followed) {
      choices.push({ label: 'Mute topic', policy: Policy.inherit });
    } else {
      choices.push({ label: 'Unmute topic', policy: Policy.unmuted });
    }
  } else if (current === Policy.muted) {
    choices.push({ label: 'Unmute topic', policy: Policy.inherit });
  } else {
    choices.push({ label: 'Mute topic', policy: Policy.muted });
  }
  if (current === Policy.followed) {
    choices.push({ label: 'Unfollow topic', policy: Policy.inherit });
  } else {
    choices.push({ label: 'Follow topic', policy: Policy.followed });
  }
  return choices;
}

/** Zulip's palette for channel colours (the first twelve of zerver/lib/stream_color.py's). */
export const CHANNEL_COLORS = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
];

/** Channel names are unique regardless of case. */
export function channelNameTaken(
  state: Pick<ChatState, 'channels' | 'subscriptions'>,
  name: string,
): boolean {
  const wanted = name.trim().toLowerCase();
  for (const channel of [...state.channels.values(), ...state.subscriptions.values()]) {
    if (channel.name.toLowerCase() === wanted) return true;
  }
  return false;
}
