import type {
  Channel,
  ChatState,
  Message,
  Narrow,
  Reaction,
  Subscription,
  User,
  UserGroup,
  UserStatus,
  UserTopic,
} from './model.js';
import {
  addMessages,
  isLocalId,
  rebuildRecentFor,
  recountUnread,
  removeMessages,
  replaceMessages,
} from './model-updates.js';
import { directKey, dmKey, messageMatchesNarrow, narrowIsLocal, topicKey } from './narrow.js';
import { presenceFrom, withRoleFlags } from './state.js';
import {
  fileFromDetail,
  fileMessage,
  forget,
  type UnreadBook,
  type UnreadDetail,
} from './unread.js';

/**
 * Applying the events of `GET /events` to the chat state (Zulip's
 * server_events_dispatch.ts is the model). Pure apart from the unread book,
 * which the store owns; what needs the network or a timer is reported in
 * `EventEffects` for the store to do.
 */

// biome-ignore lint/suspicious/noExplicitAny: events are Zulip's loosely typed JSON
export type ZulipEvent = { type: string; id: number } & Record<string, any>;

export interface EventEffects {
  /** The feed's list may now miss messages (moved in): refetch it, keeping what is shown. */
  refetchList: boolean;
  /** Channels whose loaded topic list changed in ways the events do not spell out. */
  reloadTopics: Set<number>;
  /** Typing notices: (re)start or stop each one's 15-second expiry. */
  typing: { key: string; userId: number; op: 'start' | 'stop' }[];
  /** Local echoes the server confirmed: local id → message id. */
  confirmedEchoes: Map<string, number>;
}

export function noEffects(): EventEffects {
  return { refetchList: false, reloadTopics: new Set(), typing: [], confirmedEchoes: new Map() };
}

export interface EventContext {
  book: UnreadBook;
  effects: EventEffects;
  nowSecs: number;
}

type Apply = (state: ChatState, event: ZulipEvent, ctx: EventContext) => ChatState;

const mapWith = <K, V>(map: Map<K, V>, key: K, value: V) => new Map(map).set(key, value);
const mapWithout = <K, V>(map: Map<K, V>, key: K) => {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
};

// ---------------------------------------------------------------------------
// Messages

const onMessage: Apply = (state, event, ctx) => {
  const raw = event.message as Message;
  const message: Message = {
    ...raw,
    reactions: raw.reactions ?? [],
    submessages: raw.submessages ?? [],
    flags:
      (event.flags as string[] | undefined) ?? (event.message.flags as string[] | undefined) ?? [],
  };
  let next = state;
  const localId = event.local_message_id as string | undefined;
  if (localId !== undefined) {
    const echo = [...state.messages.values()].find((m) => m.local_id === localId);
    if (echo) {
      next = removeMessages(next, ctx.book, [echo.id]);
      ctx.effects.confirmedEchoes.set(localId, message.id);
    }
  }
  next = addMessages(next, ctx.book, [message], { live: true });
  return recountUnread(next, ctx.book);
};

const onUpdateMessage: Apply = (state, event, ctx) => {
  const id = event.message_id as number | undefined;
  const changed: Message[] = [];
  const old = id !== undefined ? state.messages.get(id) : undefined;
  if (old) {
    const edited: Message = { ...old };
    if (typeof event.rendered_content === 'string') edited.content = event.rendered_content;
    if (typeof event.is_me_message === 'boolean') edited.is_me_message = event.is_me_message;
    if (Array.isArray(event.flags)) edited.flags = event.flags;
    if (!event.rendering_only && typeof event.rendered_content === 'string') {
      edited.last_edit_timestamp = event.edit_timestamp;
    }
    changed.push(edited);
  }
  let next = replaceMessages(state, changed);
  if (old && Array.isArray(event.flags)) {
    fileMessage(ctx.book, next.messages.get(old.id)!, state.ownUserId);
  }
  const newTopic = event.subject as string | undefined;
  const newChannel = event.new_stream_id as number | undefined;
  if (newTopic !== undefined || newChannel !== undefined) {
    next = applyMove(next, event, ctx, newTopic, newChannel);
  }
  return recountUnread(next, ctx.book);
};

/** A topic or channel move: every listed message gets its new place, wherever the tab keeps it. */
function applyMove(
  state: ChatState,
  event: ZulipEvent,
  ctx: EventContext,
  newTopic: string | undefined,
  newChannel: number | undefined,
): ChatState {
  const ids: number[] =
    event.message_ids ?? (event.message_id !== undefined ? [event.message_id] : []);
  const channelId = newChannel ?? (event.stream_id as number);
  const channelName =
    state.subscriptions.get(channelId)?.name ?? state.channels.get(channelId)?.name;
  const before: Message[] = [];
  const moved: Message[] = [];
  for (const id of ids) {
    const old = state.messages.get(id);
    const place = ctx.book.places.get(id);
    if (place?.kind === 'channel') {
      ctx.book.places.set(id, { kind: 'channel', channelId, topic: newTopic ?? place.topic });
    }
    if (!old) continue;
    before.push(old);
    moved.push({
      ...old,
      stream_id: channelId,
      subject: newTopic ?? old.subject,
      display_recipient: channelName ?? old.display_recipient,
      last_moved_timestamp: event.edit_timestamp,
    });
  }
  ctx.effects.reloadTopics.add(event.stream_id as number);
  if (newChannel !== undefined) ctx.effects.reloadTopics.add(newChannel);
  let next = replaceMessages(state, moved);
  next = rebuildRecentFor(next, before);
  next = rebuildRecentFor(next, moved);
  const list = next.list;
  if (list) {
    const follow = followMove(list.narrow, event, newTopic, newChannel, state);
    const narrow = follow ?? list.narrow;
    const movedIds = new Set(moved.map((m) => m.id));
    const staying = list.ids.filter(
      (listed) =>
        !movedIds.has(listed) || messageMatchesNarrow(next.messages.get(listed)!, narrow, next),
    );
    // Messages moved into the narrow that the list lacks: only the server knows where they go.
    const listed = new Set(staying);
    const arriving =
      moved.some((m) => !listed.has(m.id) && messageMatchesNarrow(m, narrow, next)) ||
      (moved.length < ids.length && destinationMatches(event, narrow, next));
    if (arriving && narrowIsLocal(narrow)) ctx.effects.refetchList = true;
    if (follow !== null || staying.length !== list.ids.length) {
      next = { ...next, list: { ...list, narrow, ids: staying } };
    }
  }
  return next;
}

/** Whether a message at the move's destination would belong to the narrow. */
function destinationMatches(event: ZulipEvent, narrow: Narrow, state: ChatState): boolean {
  const sample: Message = {
    id: -1,
    type: 'stream',
    sender_id: -1,
    sender_full_name: '',
    sender_email: '',
    avatar_url: null,
    content: '',
    stream_id: (event.new_stream_id ?? event.stream_id) as number,
    subject: (event.subject ?? event.orig_subject ?? '') as string,
    display_recipient: '',
    timestamp: 0,
    flags: ['read'],
    reactions: [],
    submessages: [],
  };
  return messageMatchesNarrow(sample, narrow, state);
}

/**
 * When the whole conversation the feed shows moved (propagate_mode
 * change_all or change_later), the feed follows it, as Zulip's web app
 * does; null when it stays.
 */
function followMove(
  narrow: Narrow,
  event: ZulipEvent,
  newTopic: string | undefined,
  newChannel: number | undefined,
  state: ChatState,
): Narrow | null {
  if (event.propagate_mode === 'change_one') return null;
  const channelTerm = narrow.find((t) => t.operator === 'channel' || t.operator === 'stream');
  const topicTerm = narrow.find((t) => t.operator === 'topic' || t.operator === 'subject');
  if (!channelTerm || narrow.length > 3 || narrow.some((t) => t.negated)) return null;
  const channelId =
    typeof channelTerm.operand === 'number'
      ? channelTerm.operand
      : [...state.channels.values()].find(
          (c) => c.name.toLowerCase() === String(channelTerm.operand).toLowerCase(),
        )?.stream_id;
  if (channelId !== event.stream_id) return null;
  const origTopic = (event.orig_subject ?? '') as string;
  if (!topicTerm || String(topicTerm.operand).toLowerCase() !== origTopic.toLowerCase())
    return null;
  return narrow.map((term) => {
    if (term === channelTerm && newChannel !== undefined) return { ...term, operand: newChannel };
    if (term === topicTerm && newTopic !== undefined) return { ...term, operand: newTopic };
    return term;
  });
}

const onDeleteMessage: Apply = (state, event, ctx) => {
  const ids: number[] =
    event.message_ids ?? (event.message_id !== undefined ? [event.message_id] : []);
  if (event.message_type === 'stream' && event.stream_id !== undefined) {
    ctx.effects.reloadTopics.add(event.stream_id);
  }
  return recountUnread(removeMessages(state, ctx.book, ids), ctx.book);
};

const onUpdateMessageFlags: Apply = (state, event, ctx) => {
  const flag = event.flag as string;
  const adding = event.op === 'add';
  if (flag === 'read' && adding && event.all) {
    for (const id of [...ctx.book.places.keys()]) forget(ctx.book, id);
  }
  const ids: number[] =
    event.all && adding
      ? [...state.messages.keys()].filter((id) => !isLocalId(id))
      : (event.messages ?? []);
  const changed: Message[] = [];
  for (const id of ids) {
    const old = state.messages.get(id);
    if (old && old.flags.includes(flag) !== adding) {
      changed.push({
        ...old,
        flags: adding ? [...old.flags, flag] : old.flags.filter((f) => f !== flag),
      });
    }
    if (flag !== 'read') continue;
    if (adding) forget(ctx.book, id);
    else {
      const detail = (event.message_details as Record<string, UnreadDetail> | undefined)?.[
        String(id)
      ];
      if (detail) fileFromDetail(ctx.book, id, detail, state.ownUserId);
      else if (old)
        fileMessage(
          ctx.book,
          { ...old, flags: old.flags.filter((f) => f !== 'read') },
          state.ownUserId,
        );
    }
  }
  const next = replaceMessages(state, changed);
  return flag === 'read' ? recountUnread(next, ctx.book) : next;
};

const sameReaction = (a: Reaction, b: Reaction) =>
  a.user_id === b.user_id && a.emoji_code === b.emoji_code && a.reaction_type === b.reaction_type;

const onReaction: Apply = (state, event) => {
  const old = state.messages.get(event.message_id);
  if (!old) return state;
  const reaction: Reaction = {
    emoji_name: event.emoji_name,
    emoji_code: event.emoji_code,
    reaction_type: event.reaction_type,
    user_id: event.user_id,
  };
  const present = old.reactions.some((r) => sameReaction(r, reaction));
  if (event.op === 'add' && present) return state;
  if (event.op === 'remove' && !present) return state;
  const reactions =
    event.op === 'add'
      ? [...old.reactions, reaction]
      : old.reactions.filter((r) => !sameReaction(r, reaction));
  return replaceMessages(state, [{ ...old, reactions }]);
};

const onSubmessage: Apply = (state, event) => {
  const old = state.messages.get(event.message_id);
  if (!old) return state;
  const submessage = {
    id: event.submessage_id,
    message_id: event.message_id,
    sender_id: event.sender_id,
    msg_type: event.msg_type,
    content: event.content,
  };
  return replaceMessages(state, [{ ...old, submessages: [...old.submessages, submessage] }]);
};

// ---------------------------------------------------------------------------
// Channels and subscriptions

const onSubscription: Apply = (state, event, ctx) => {
  switch (event.op) {
    case 'add': {
      const subscriptions = new Map(state.subscriptions);
      const channels = new Map(state.channels);
      for (const sub of event.subscriptions as Subscription[]) {
        subscriptions.set(sub.stream_id, sub);
        channels.set(sub.stream_id, { ...(channels.get(sub.stream_id) ?? {}), ...sub });
      }
      return recountUnread({ ...state, subscriptions, channels }, ctx.book);
    }
    case 'remove': {
      const subscriptions = new Map(state.subscriptions);
      for (const sub of event.subscriptions as { stream_id: number }[])
        subscriptions.delete(sub.stream_id);
      return recountUnread({ ...state, subscriptions }, ctx.book);
    }
    case 'update': {
      const old = state.subscriptions.get(event.stream_id);
      if (!old) return state;
      const changed: Subscription = { ...old, [event.property]: event.value };
      // Zulip's legacy inverse of is_muted.
      if (event.property === 'in_home_view') changed.is_muted = !event.value;
      const next = {
        ...state,
        subscriptions: mapWith(state.subscriptions, old.stream_id, changed),
      };
      return event.property === 'is_muted' || event.property === 'in_home_view'
        ? recountUnread(next, ctx.book)
        : next;
    }
    case 'peer_add':
    case 'peer_remove': {
      const delta = event.op === 'peer_add' ? 1 : -1;
      const ids: number[] = event.stream_ids ?? [];
      const count = (event.user_ids as number[] | undefined)?.length ?? 0;
      let subscriptions = state.subscriptions;
      for (const id of ids) {
        const sub = subscriptions.get(id);
        if (sub && typeof sub.subscriber_count === 'number') {
          subscriptions = mapWith(subscriptions, id, {
            ...sub,
            subscriber_count: sub.subscriber_count + delta * count,
          });
        }
      }
      return subscriptions === state.subscriptions ? state : { ...state, subscriptions };
    }
    default:
      return state;
  }
};

const onStream: Apply = (state, event, ctx) => {
  switch (event.op) {
    case 'create': {
      const channels = new Map(state.channels);
      for (const channel of event.streams as Channel[]) channels.set(channel.stream_id, channel);
      return { ...state, channels };
    }
    case 'delete': {
      const ids: number[] =
        event.stream_ids ?? (event.streams as Channel[]).map((c) => c.stream_id);
      const channels = new Map(state.channels);
      const subscriptions = new Map(state.subscriptions);
      for (const id of ids) {
        channels.delete(id);
        subscriptions.delete(id);
      }
      return recountUnread({ ...state, channels, subscriptions }, ctx.book);
    }
    case 'update': {
      const extra: Record<string, unknown> = { [event.property]: event.value };
      for (const key of [
        'rendered_description',
        'history_public_to_subscribers',
        'is_web_public',
      ]) {
        if (key in event) extra[key] = event[key];
      }
      const id = event.stream_id as number;
      let { channels, subscriptions } = state;
      const channel = channels.get(id);
      if (channel) channels = mapWith(channels, id, { ...channel, ...extra });
      const sub = subscriptions.get(id);
      if (sub) subscriptions = mapWith(subscriptions, id, { ...sub, ...extra });
      return { ...state, channels, subscriptions };
    }
    default:
      return state;
  }
};

const onUserTopic: Apply = (state, event, ctx) => {
  const entry: UserTopic = {
    stream_id: event.stream_id,
    topic_name: event.topic_name,
    visibility_policy: event.visibility_policy,
    last_updated: event.last_updated,
  };
  const lower = entry.topic_name.toLowerCase();
  const others = state.userTopics.filter(
    (t) => !(t.stream_id === entry.stream_id && t.topic_name.toLowerCase() === lower),
  );
  const userTopics = entry.visibility_policy === 0 ? others : [...others, entry];
  return recountUnread({ ...state, userTopics }, ctx.book);
};

const onMutedUsers: Apply = (state, event, ctx) => {
  const mutedUserIds = new Set((event.muted_users as { id: number }[]).map((m) => m.id));
  return recountUnread({ ...state, mutedUserIds }, ctx.book);
};

// ---------------------------------------------------------------------------
// People

const onRealmUser: Apply = (state, event) => {
  const person = event.person as Partial<User> & { user_id: number };
  switch (event.op) {
    case 'add':
      return {
        ...state,
        users: mapWith(state.users, person.user_id, withRoleFlags(person as User)),
      };
    case 'remove':
      return { ...state, users: mapWithout(state.users, person.user_id) };
    case 'update': {
      const old = state.users.get(person.user_id);
      if (!old) return state;
      let user: User = { ...old, ...person };
      if ('role' in person) user = withRoleFlags(user);
      // A deactivated user's custom profile field update names one field.
      if (person.custom_profile_field && typeof person.custom_profile_field === 'object') {
        const field = person.custom_profile_field as {
          id: number;
          value: unknown;
          rendered_value?: unknown;
        };
        const profile = { ...((old.profile_data as Record<string, unknown>) ?? {}) };
        if (field.value === null) delete profile[field.id];
        else profile[field.id] = { value: field.value, rendered_value: field.rendered_value };
        user = { ...old, profile_data: profile };
      }
      return { ...state, users: mapWith(state.users, person.user_id, user) };
    }
    default:
      return state;
  }
};

const onPresence: Apply = (state, event, ctx) => {
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

const onUserStatus: Apply = (state, event) => {
  const old = state.userStatus.get(event.user_id) ?? {};
  const status: UserStatus = { ...old };
  for (const key of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type', 'away'] as const) {
    if (key in event) (status as Record<string, unknown>)[key] = event[key];
  }
  // Zulip clears a field with an empty string.
  for (const key of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type'] as const) {
    if (status[key] === '') delete status[key];
  }
  if (status.away === false) delete status.away;
  const userStatus =
    Object.keys(status).length === 0
      ? mapWithout(state.userStatus, event.user_id)
      : mapWith(state.userStatus, event.user_id, status);
  return { ...state, userStatus };
};

/** The conversation a typing notice is about (`typing` keys). */
export function typingKey(event: ZulipEvent, ownUserId: number): string | null {
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

const onTyping: Apply = (state, event, ctx) => {
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

const onUserGroup: Apply = (state, event) => {
  const groups = state.groups ?? new Map<number, UserGroup>();
  if (event.op === 'add') return { ...state, groups: mapWith(groups, event.group.id, event.group) };
  if (event.op === 'remove') return { ...state, groups: mapWithout(groups, event.group_id) };
  const old = groups.get(event.group_id);
  if (!old) return state;
  const without = (list: number[], gone: number[]) => list.filter((id) => !gone.includes(id));
  const withAll = (list: number[], added: number[]) => [...new Set([...list, ...added])];
  let group: UserGroup;
  switch (event.op) {
    case 'update':
      group = { ...old, ...event.data };
      break;
    case 'add_members':
      group = { ...old, members: withAll(old.members, event.user_ids) };
      break;
    case 'remove_members':
      group = { ...old, members: without(old.members, event.user_ids) };
      break;
    case 'add_subgroups':
      group = {
        ...old,
        direct_subgroup_ids: withAll(old.direct_subgroup_ids, event.direct_subgroup_ids),
      };
      break;
    case 'remove_subgroups':
      group = {
        ...old,
        direct_subgroup_ids: without(old.direct_subgroup_ids, event.direct_subgroup_ids),
      };
      break;
    default:
      return state;
  }
  return { ...state, groups: mapWith(groups, group.id, group) };
};

// ---------------------------------------------------------------------------
// Settings, drafts, realm

const onUserSettings: Apply = (state, event) =>
  event.op === 'update'
    ? { ...state, settings: { ...state.settings, [event.property]: event.value } }
    : state;

/** The legacy `update_display_settings` / `update_global_notifications` events some servers still send. */
const onLegacySettings: Apply = (state, event) =>
  typeof event.setting_name === 'string'
    ? { ...state, settings: { ...state.settings, [event.setting_name]: event.setting } }
    : state;

const onDrafts: Apply = (state, event) => {
  switch (event.op) {
    case 'add': {
      const drafts = new Map(state.drafts);
      for (const draft of event.drafts as Record<string, unknown>[])
        drafts.set(Number(draft.id), draft);
      return { ...state, drafts };
    }
    case 'update':
      return { ...state, drafts: mapWith(state.drafts, Number(event.draft.id), event.draft) };
    case 'remove':
      return { ...state, drafts: mapWithout(state.drafts, Number(event.draft_id)) };
    default:
      return state;
  }
};

const onRealm: Apply = (state, event) => {
  const changes: Record<string, unknown> =
    event.op === 'update'
      ? { [event.property]: event.value }
      : event.op === 'update_dict'
        ? (event.data ?? {})
        : {};
  if (Object.keys(changes).length === 0) return state;
  const settings = { ...state.realm.settings };
  for (const [key, value] of Object.entries(changes)) settings[`realm_${key}`] = value;
  const name = typeof changes.name === 'string' ? changes.name : state.realm.name;
  const maxFileUploadSizeMib =
    typeof changes.max_file_upload_size_mib === 'number'
      ? changes.max_file_upload_size_mib
      : state.realm.maxFileUploadSizeMib;
  return { ...state, realm: { ...state.realm, name, settings, maxFileUploadSizeMib } };
};

const onRealmEmoji: Apply = (state, event) =>
  event.op === 'update' ? { ...state, realm: { ...state.realm, emoji: event.realm_emoji } } : state;

const handlers: Record<string, Apply> = {
  message: onMessage,
  update_message: onUpdateMessage,
  delete_message: onDeleteMessage,
  update_message_flags: onUpdateMessageFlags,
  reaction: onReaction,
  submessage: onSubmessage,
  subscription: onSubscription,
  stream: onStream,
  user_topic: onUserTopic,
  muted_users: onMutedUsers,
  realm_user: onRealmUser,
  presence: onPresence,
  user_status: onUserStatus,
  typing: onTyping,
  user_group: onUserGroup,
  user_settings: onUserSettings,
  update_display_settings: onLegacySettings,
  update_global_notifications: onLegacySettings,
  drafts: onDrafts,
  realm: onRealm,
  realm_emoji: onRealmEmoji,
};

/** One event applied; unknown types (heartbeat, restart, and those the chat does not show) change nothing. */
export function applyEvent(state: ChatState, event: ZulipEvent, ctx: EventContext): ChatState {
  const handler = handlers[event.type];
  return handler ? handler(state, event, ctx) : state;
}
