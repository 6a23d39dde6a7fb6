import type * as Api from '../../../../server/shared/zulip-api/index.js';
import { sortFolders } from './channel-events.js';
import type {
  Channel,
  ChannelFolder,
  ChatState,
  CustomEmoji,
  Presence,
  SavedSnippet,
  Subscription,
  User,
  UserGroup,
  UserStatus,
  UserTopic,
} from './model.js';
import { hasDraftId } from './settings-events.js';

/**
 * The chat state before and right after `POST /register`. Exported so
 * views' tests can build a state without a server.
 */
export function initialChatState(ownUserId = 0): ChatState {
  return {
    connection: 'connecting',
    ownUserId,
    realm: { name: '', settings: {}, emoji: {}, serverEmojiDataUrl: null, maxFileUploadSizeMib: 0 },
    users: new Map(),
    subscriptions: new Map(),
    channels: new Map(),
    channelFolders: [],
    topics: new Map(),
    userTopics: [],
    mutedUserIds: new Set(),
    presence: new Map(),
    userStatus: new Map(),
    typing: new Map(),
    messages: new Map(),
    list: null,
    unread: {
      total: 0,
      channels: new Map(),
      topics: new Map(),
      directs: new Map(),
      mentions: 0,
      mentionConversations: new Set(),
    },
    settings: {},
    drafts: new Map(),
    recent: [],
    recentLoaded: false,
    groups: new Map(),
    starred: new Set(),
    alertWords: [],
  };
}

/** Zulip's presence thresholds (web/src/presence.ts): older reports mean offline. */
export const OFFLINE_THRESHOLD_SECS = 140;

/** A modern presence record (`active_timestamp`, `idle_timestamp`) as a status now. */
export function presenceFrom(
  times: { active_timestamp?: number; idle_timestamp?: number },
  nowSecs: number,
): Presence {
  const active = times.active_timestamp ?? 0;
  const idle = times.idle_timestamp ?? 0;
  let status: Presence['status'] = 'offline';
  if (active > 0 && nowSecs - active < OFFLINE_THRESHOLD_SECS) status = 'active';
  else if (idle > 0 && nowSecs - idle < OFFLINE_THRESHOLD_SECS) status = 'idle';
  return { status, last_active: active > 0 ? active : null };
}

/** Role codes (Zulip's UserProfile.ROLE_*) behind the is_* booleans. */
export function withRoleFlags(user: User): User {
  return {
    ...user,
    is_owner: user.role === 100,
    is_admin: user.role === 100 || user.role === 200,
    is_guest: user.role === 600,
  };
}

/** `POST /register`'s answer, as the server's API module describes it. */
export type RegisterAnswer = Api.RegisterAnswer;

/**
 * Register's `realm_` keys that are the organization's data, not its
 * settings: each has its own events (or none the chat applies), so a copy
 * among the settings, which only `realm` events update, would go stale.
 * (`realm_playgrounds` stays among the settings: its own event updates it
 * there, settings-events.ts.)
 */
const REALM_DATA = new Set([
  'realm_users',
  'realm_non_active_users',
  'realm_bots',
  'realm_user_groups',
  'realm_emoji',
  'realm_domains',
  'realm_linkifiers',
  'realm_filters',
  'realm_default_streams',
  'realm_default_stream_groups',
  'realm_embedded_bots',
  'realm_incoming_webhook_bots',
  'realm_user_settings_defaults',
]);

export function stateFromRegister(answer: RegisterAnswer, nowSecs: number): ChatState {
  const state = initialChatState(answer.user_id ?? 0);
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answer)) {
    if (key.startsWith('realm_') && !REALM_DATA.has(key)) settings[key] = value;
  }
  state.realm = {
    name: String(answer.realm_name ?? ''),
    settings,
    emoji: (answer.realm_emoji ?? {}) as Record<string, CustomEmoji>,
    serverEmojiDataUrl: answer.server_emoji_data_url ?? null,
    maxFileUploadSizeMib: Number(answer.max_file_upload_size_mib ?? 0),
  };
  // Register leaves `is_active` out of its user lists: which list a user is in says it.
  const lists: [unknown, boolean][] = [
    [answer.realm_users, true],
    [answer.realm_non_active_users, false],
    [answer.cross_realm_bots, true],
  ];
  for (const [list, isActive] of lists) {
    for (const user of (list ?? []) as User[]) {
      state.users.set(user.user_id, { ...user, is_active: user.is_active ?? isActive });
    }
  }
  // Register says where one's own picture comes from ("G" generated, "U" uploaded); events say it for changes.
  const own = state.users.get(state.ownUserId);
  if (own && typeof answer.avatar_source === 'string') {
    state.users.set(own.user_id, { ...own, avatar_source: answer.avatar_source });
  }
  for (const channel of (answer.streams ?? []) as Channel[])
    state.channels.set(channel.stream_id, channel);
  for (const sub of (answer.subscriptions ?? []) as Subscription[]) {
    state.subscriptions.set(sub.stream_id, sub);
    if (!state.channels.has(sub.stream_id)) state.channels.set(sub.stream_id, sub);
  }
  state.channelFolders = sortFolders((answer.channel_folders ?? []) as ChannelFolder[]);
  for (const list of [answer.unsubscribed, answer.never_subscribed]) {
    for (const channel of (list ?? []) as Channel[]) {
      if (!state.channels.has(channel.stream_id)) state.channels.set(channel.stream_id, channel);
    }
  }
  state.userTopics = ((answer.user_topics ?? []) as UserTopic[]).filter(
    (entry) => entry.visibility_policy !== 0,
  );
  for (const muted of (answer.muted_users ?? []) as { id: number }[])
    state.mutedUserIds.add(muted.id);
  for (const [id, times] of Object.entries(answer.presences ?? {})) {
    if (/^\d+$/.test(id)) state.presence.set(Number(id), presenceFrom(times as object, nowSecs));
  }
  for (const [id, status] of Object.entries(answer.user_status ?? {})) {
    state.userStatus.set(Number(id), status as UserStatus);
  }
  state.settings = { ...(answer.user_settings ?? {}) };
  state.groups = new Map(((answer.realm_user_groups ?? []) as UserGroup[]).map((g) => [g.id, g]));
  state.starred = new Set(
    ((answer.starred_messages ?? []) as unknown[]).filter((id): id is number =>
      Number.isInteger(id),
    ),
  );
  state.alertWords = ((answer.alert_words ?? []) as unknown[]).filter(
    (word): word is string => typeof word === 'string',
  );
  for (const draft of (answer.drafts ?? []).filter(hasDraftId)) state.drafts.set(draft.id, draft);
  state.scheduledMessages = new Map(
    (answer.scheduled_messages ?? []).map((m) => [m.scheduled_message_id, m]),
  );
  state.savedSnippets = new Map(
    ((answer.saved_snippets ?? []) as SavedSnippet[]).map((s) => [s.id, s]),
  );
  return state;
}
