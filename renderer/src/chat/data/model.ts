/**
 * What the chat view knows, in Zulip's own shapes (as `POST /register`, the
 * events and `GET /messages` give them), and the store's interface. The data
 * layer (this folder) fills it; views read it through `store-context.tsx` and
 * change the server only through `ChatActions` or the API, never the state.
 */
import type * as Api from '../../../../server/shared/zulip-api/index.js';
import type { ZulipApi } from './api.js';

/** One narrow term as Zulip's API takes it (`channel`, `topic`, `dm`, `search`, `is`, `near`, …). */
export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}
export type Narrow = NarrowTerm[];

/**
 * The server's type (server/shared/zulip-api) with the fields the chat
 * relies on required and the rest as the server may send them: test data
 * and local echoes need only the former.
 */
type Needs<T, K extends keyof T> = Simplify<Pick<T, K> & Partial<Omit<T, K>>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type User = Needs<
  Api.User,
  | 'user_id'
  | 'email'
  | 'full_name'
  | 'avatar_url'
  | 'is_active'
  | 'is_bot'
  | 'role'
  | 'is_admin'
  | 'is_owner'
  | 'is_guest'
  | 'timezone'
  | 'date_joined'
> & {
  /** One's own record only: register's top-level `avatar_source` (G: generated, U: uploaded). */
  avatar_source?: string;
};

export type Subscription = Needs<
  Api.Subscription,
  | 'stream_id'
  | 'name'
  | 'description'
  | 'rendered_description'
  | 'color'
  | 'pin_to_top'
  | 'is_muted'
  | 'invite_only'
  | 'desktop_notifications'
>;

/** A channel the user may see but need not be subscribed to (`streams` in register). */
export type Channel = Needs<
  Api.Stream,
  'stream_id' | 'name' | 'description' | 'rendered_description' | 'invite_only'
>;

/** A channel folder (register's `channel_folders`, kept by `channel_folder` events). */
export type ChannelFolder = Needs<Api.ChannelFolder, 'id' | 'name' | 'order' | 'is_archived'>;

export type Reaction = Api.Reaction;

/**
 * A message the tab has: the server's dict with the user's flags (the chat
 * always registers with `apply_markdown`, so `content` is HTML), or a local
 * echo of one sent from this tab.
 */
export type Message = Needs<
  Omit<Api.FetchedMessage, 'display_recipient'> & {
    /** The channel's name, or the DM's recipients (a local echo knows no `is_mirror_dummy`). */
    display_recipient: string | Needs<Api.DisplayRecipientUser, 'id' | 'email' | 'full_name'>[];
  },
  | 'id'
  | 'type'
  | 'sender_id'
  | 'sender_full_name'
  | 'sender_email'
  | 'avatar_url'
  | 'content'
  | 'subject'
  | 'display_recipient'
  | 'timestamp'
  | 'flags'
  | 'reactions'
  | 'submessages'
> & {
  /** Set on a message sent from this tab that the server has not confirmed yet. */
  local_id?: string;
  /** Added by the data layer: a local echo whose send failed (the view offers retry or delete). */
  failed?: boolean;
};

export type VisibilityPolicy = 0 | 1 | 2 | 3; // inherit, muted, unmuted, followed

export interface UserTopic {
  stream_id: number;
  topic_name: string;
  visibility_policy: VisibilityPolicy;
  last_updated: number;
}

export interface Presence {
  /** `active`, `idle` or `offline`, derived from the timestamps the server reports. */
  status: 'active' | 'idle' | 'offline';
  last_active: number | null;
}

export type UserStatus = Partial<Api.UserStatus>;

export type CustomEmoji = Needs<Api.CustomEmoji, 'id' | 'name' | 'source_url' | 'deactivated'>;

/** A user group (`realm_user_groups` in register, kept by `user_group` events); system groups (`role:…`) included. */
export type UserGroup = Needs<
  Api.UserGroup,
  'id' | 'name' | 'description' | 'members' | 'direct_subgroup_ids' | 'is_system_group'
>;

/**
 * A draft as the server keeps it (register's `drafts`, kept by `drafts`
 * events): the API's Draft, whose `id` (absent from the Draft a client
 * sends) the server always names.
 */
export type Draft = Simplify<Api.Draft & { id: number }>;

/** One of the user's scheduled messages (register's `scheduled_messages`, kept by events). */
export type ScheduledMessage = Api.ScheduledMessage;

/** A saved snippet: text the user keeps for inserting in compose (`saved_snippets`). */
export type SavedSnippet = Api.SavedSnippet;

/** Where the compose box sends: a channel and topic, or direct-message recipients. */
export type ComposeTarget =
  | { kind: 'channel'; channelId: number; topic: string }
  | { kind: 'direct'; userIds: number[] };

/** Unread counts the sidebar, title and Inbox show; kept by the data layer from register + events. */
export interface UnreadCounts {
  total: number;
  /** By channel id (muted topics and channels excluded as Zulip's web app counts them). */
  channels: Map<number, number>;
  /** By channel id then topic name. */
  topics: Map<number, Map<string, number>>;
  /** By DM conversation key (`dmKey`: sorted user ids joined by `,`, the user's own id left out). */
  directs: Map<string, number>;
  mentions: number;
  /** Added by the data layer: register said older unreads were left out (the counts are a lower bound). */
  oldUnreadsMissing?: boolean;
  /**
   * Added by the data layer: conversations with an unread mention, by the
   * keys of `recent` and `typing` (`channel:{id}:{lower-cased topic}`,
   * `dm:{dmKey}`), for Inbox's and the sidebar's `@` marks.
   */
  mentionConversations?: Set<string>;
}

/**
 * Added by the data layer: one conversation of Recent conversations, newest
 * first in `ChatState.recent`. `key` is `channel:{id}:{lower-cased topic}` or
 * `dm:{dmKey}` (narrow.ts `conversationKeyOf`), the same keys as `typing`.
 */
export interface RecentConversation {
  key: string;
  channelId?: number;
  /** The topic as its newest message spells it. */
  topic?: string;
  /** DMs: the other participants (own id alone for a self-DM). */
  userIds?: number[];
  /** The newest message id the tab knows in the conversation. */
  maxId: number;
  /** Senders of the loaded messages, newest first (avatars in the Recent view). */
  senderIds: number[];
}

/** A loaded stretch of one narrow's messages, as the feed shows them. */
export interface MessageListState {
  narrow: Narrow;
  /** Message ids in order. */
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
  loadingOlder: boolean;
  loadingNewer: boolean;
  /** The message to scroll to first (the first unread, or `near`). */
  anchorId: number | null;
  error: string | null;
}

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'logged-out';

export interface ChatState {
  connection: ConnectionState;
  ownUserId: number;
  realm: {
    name: string;
    /** `realm_*` settings from register as given (edit limits, `realm_allow_message_editing`, …). */
    settings: Record<string, unknown>;
    emoji: Record<string, CustomEmoji>;
    /** `server_emoji_data_url` and friends from register. */
    serverEmojiDataUrl: string | null;
    maxFileUploadSizeMib: number;
  };
  /** Active and deactivated users and bots by id (`realm_users`, `realm_non_active_users`, cross-realm bots). */
  users: Map<number, User>;
  subscriptions: Map<number, Subscription>;
  /** Every channel the user can see (`streams`), subscribed or not. */
  channels: Map<number, Channel>;
  /** The organization's channel folders, in their order; the sidebar groups channels by them. */
  channelFolders: ChannelFolder[];
  /** Topics per channel, newest first (`GET /users/me/{id}/topics` loaded on demand, kept by events). */
  topics: Map<number, { name: string; maxId: number }[]>;
  userTopics: UserTopic[];
  mutedUserIds: Set<number>;
  presence: Map<number, Presence>;
  userStatus: Map<number, UserStatus>;
  /** Users typing per conversation key (`channel:{id}:{topic}` or `dm:{key}`). */
  typing: Map<string, number[]>;
  /** Every message the tab has, by id. */
  messages: Map<number, Message>;
  /** The feed's current list. */
  list: MessageListState | null;
  unread: UnreadCounts;
  /** `user_settings` from register (enter_sends, twenty_four_hour_time, …) kept by events. */
  settings: Record<string, unknown>;
  /** Drafts by id (`drafts` from register and events). */
  drafts: Map<number, Draft>;
  /**
   * Added by the data layer: Recent conversations, newest first, from the
   * newest 400 messages loaded at start (as Zulip's web app does) and every
   * message since. Inbox reads `unread.topics` / `unread.directs`.
   */
  recent: RecentConversation[];
  /** Added by the data layer: true once the start-up load of recent messages has answered. */
  recentLoaded: boolean;
  /**
   * User groups by id (`realm_user_groups`): `@` mentions of groups, and who
   * holds a group-setting permission (editing, moving, deleting messages).
   */
  groups?: Map<number, UserGroup>;
  /**
   * Added by the data layer: the ids of the user's starred messages
   * (`starred_messages` in register, kept by `starred` flag events and
   * deletions), loaded or not: the sidebar's Starred count.
   */
  starred?: ReadonlySet<number>;
  /** Added by the data layer: the user's alert words (`alert_words` in register, kept by `alert_words` events). */
  alertWords?: readonly string[];
  /** Added by the data layer: the user's scheduled messages by id (register + `scheduled_messages` events). */
  scheduledMessages?: ReadonlyMap<number, ScheduledMessage>;
  /** Added by the data layer: the user's saved snippets by id (register + `saved_snippets` events). */
  savedSnippets?: ReadonlyMap<number, SavedSnippet>;
}

/** What views may ask of the data layer; each goes to the server and comes back as events. */
export interface ChatActions {
  /** Shows `narrow` in the feed: loads around its first unread (or `near`). */
  showNarrow(narrow: Narrow): void;
  loadOlder(): void;
  loadNewer(): void;
  /** Marks messages read (they were seen in the feed). */
  markRead(ids: number[]): void;
  /** Marks every message of the current narrow read. */
  markNarrowRead(): void;
  /** Sends with local echo; resolves with the server's id. */
  send(target: ComposeTarget, content: string): Promise<number>;
  /**
   * Added by the data layer: sends a failed local echo (`failed: true`)
   * again, replacing it with a new echo; resolves with the server's id.
   */
  retrySend?(echoId: number): Promise<number>;
  /** Added by the data layer: drops a failed local echo the user gives up on. */
  discardFailed?(echoId: number): void;
  /** Loads a channel's topics when the sidebar opens it. */
  loadTopics(channelId: number): void;
  logOut(): Promise<void>;
}

export interface ChatStore {
  readonly api: ZulipApi;
  readonly actions: ChatActions;
  getState(): ChatState;
  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Stops the event loop and deletes the queue (log-out, page unload). */
  close(): void;
}
