import type { Delivered } from '../../../../server/shared/zulip-api/index.js';
import { type Apply, type EventContext, type Handlers, mapWith } from './event-kit.js';
import type { ChatState, Message, Narrow, Reaction } from './model.js';
import {
  addMessages,
  isLocalId,
  rebuildRecentFor,
  recountUnread,
  removeMessages,
  replaceMessages,
} from './model-updates.js';
import { conversationKeyOf, messageMatchesNarrow, narrowIsLocal } from './narrow.js';
import { withTyping } from './people-events.js';
import { isResolveToggle } from './resolved-topic.js';
import { fileFromDetail, fileMessage, forget, type UnreadDetail } from './unread.js';

/** Message events: new messages, edits and moves, deletions, flags, reactions, widgets. */

/** A channel's first message, once it has one (register's `first_message_id`, as Zulip's apply_event keeps it). */
function withFirstMessage(state: ChatState, message: Message): ChatState {
  if (message.type !== 'stream' || typeof message.stream_id !== 'number') return state;
  const id = message.stream_id;
  let { channels, subscriptions } = state;
  const channel = channels.get(id);
  if (channel && channel.first_message_id === null)
    channels = mapWith(channels, id, { ...channel, first_message_id: message.id });
  const sub = subscriptions.get(id);
  if (sub && sub.first_message_id === null)
    subscriptions = mapWith(subscriptions, id, { ...sub, first_message_id: message.id });
  return channels === state.channels && subscriptions === state.subscriptions
    ? state
    : { ...state, channels, subscriptions };
}

const onMessage: Apply<'message'> = (state, event, ctx) => {
  const raw = event.message as Message;
  const message: Message = {
    ...raw,
    reactions: raw.reactions ?? [],
    submessages: raw.submessages ?? [],
    flags: event.flags ?? (event.message as { flags?: string[] }).flags ?? [],
  };
  let next = state;
  const localId = event.local_message_id as string | undefined;
  if (localId !== undefined) {
    const echo = [...state.messages.values()].find((m) => m.local_id === localId);
    if (echo) {
      next = removeMessages(next, ctx.book, [echo.id]);
    }
  }
  next = addMessages(next, ctx.book, [message], { live: true });
  next = withFirstMessage(next, message);
  // The message a typist was writing has come: their notice goes (as in Zulip's web app).
  next = withTyping(next, conversationKeyOf(message, state.ownUserId), message.sender_id, false);
  return recountUnread(next, ctx.book);
};

/**
 * The fields of `update_message` that Zulip sends only for some edits: the
 * content ones for a content edit, the place ones for a channel message or a
 * move (its description says which).
 */
type UpdateMessageSometimes =
  | 'stream_id'
  | 'stream_name'
  | 'orig_subject'
  | 'subject'
  | 'new_stream_id'
  | 'propagate_mode'
  | 'topic_links'
  | 'content'
  | 'rendered_content'
  | 'orig_content'
  | 'orig_rendered_content'
  | 'is_me_message'
  | 'user_id'
  | 'edit_timestamp'
  | 'prev_rendered_content_version';
type UpdateMessageEvent = Delivered<'update_message', UpdateMessageSometimes>;

const onUpdateMessage: Apply<'update_message', UpdateMessageSometimes> = (state, event, ctx) => {
  const id = event.message_id as number | undefined;
  const changed: Message[] = [];
  const old = id !== undefined ? state.messages.get(id) : undefined;
  if (old) {
    const edited: Message = { ...old };
    if (typeof event.rendered_content === 'string') {
      edited.content = event.rendered_content;
      // A search's highlighted copy of the old text would show it again.
      delete edited.match_content;
    }
    if (typeof event.is_me_message === 'boolean') edited.is_me_message = event.is_me_message;
    if (Array.isArray(event.flags)) edited.flags = event.flags;
    if (Array.isArray(event.topic_links)) edited.topic_links = event.topic_links;
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
  event: UpdateMessageEvent,
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
  const resolveOnly =
    newChannel === undefined &&
    newTopic !== undefined &&
    isResolveToggle((event.orig_subject ?? '') as string, newTopic);
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
      last_moved_timestamp: resolveOnly ? old.last_moved_timestamp : event.edit_timestamp,
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
function destinationMatches(event: UpdateMessageEvent, narrow: Narrow, state: ChatState): boolean {
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
  event: UpdateMessageEvent,
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

const onDeleteMessage: Apply<'delete_message'> = (state, event, ctx) => {
  const ids: number[] =
    event.message_ids ?? (event.message_id !== undefined ? [event.message_id] : []);
  if (event.message_type === 'stream' && event.stream_id !== undefined) {
    ctx.effects.reloadTopics.add(event.stream_id);
  }
  const next = withStarred(removeMessages(state, ctx.book, ids), [], ids);
  return recountUnread(next, ctx.book);
};

/**
 * The starred ids with some added and some taken away (as Zulip's
 * starred_messages: by id, whether the tab has the message or not).
 */
function withStarred(state: ChatState, added: number[], removed: number[]): ChatState {
  const old = state.starred ?? new Set<number>();
  const changes = added.some((id) => !old.has(id)) || removed.some((id) => old.has(id));
  if (!changes) return state;
  const starred = new Set(old);
  for (const id of added) starred.add(id);
  for (const id of removed) starred.delete(id);
  return { ...state, starred };
}

const onUpdateMessageFlags: Apply<'update_message_flags'> = (state, event, ctx) => {
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
  let next = replaceMessages(state, changed);
  if (flag === 'starred') {
    // Zulip only ever sends `all` for read: a starred event always lists its messages.
    const listed: number[] = event.messages ?? [];
    next = withStarred(next, adding ? listed : [], adding ? [] : listed);
    // The Starred view gains or loses them (Zulip's update_views_filtered_on_message_property);
    // only the server has the ones the tab never loaded.
    const shown = next.list?.narrow;
    if (shown?.some((t) => t.operator === 'is' && t.operand === 'starred') && listed.length > 0) {
      ctx.effects.refetchList = true;
    }
  }
  return flag === 'read' ? recountUnread(next, ctx.book) : next;
};

const sameReaction = (a: Reaction, b: Reaction) =>
  a.user_id === b.user_id && a.emoji_code === b.emoji_code && a.reaction_type === b.reaction_type;

const onReaction: Apply<'reaction'> = (state, event) => {
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

const onSubmessage: Apply<'submessage'> = (state, event) => {
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

export const messageHandlers: Handlers = {
  message: onMessage,
  update_message: onUpdateMessage,
  delete_message: onDeleteMessage,
  update_message_flags: onUpdateMessageFlags,
  reaction: onReaction,
  submessage: onSubmessage,
};
