import { type Apply, type Handlers, mapWith } from './event-kit.js';
import type { Channel, ChannelFolder, Subscription, UserTopic } from './model.js';
import { recountUnread, replaceMessages } from './model-updates.js';

/** Channel events: subscriptions, channels, topic visibility and muted users (all of which move unread counts). */

const pick = (from: object, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(from).filter(([key]) => keys.includes(key)));

const onSubscription: Apply<'subscription'> = (state, event, ctx) => {
  switch (event.op) {
    case 'add': {
      const subscriptions = new Map(state.subscriptions);
      const channels = new Map(state.channels);
      for (const added of event.subscriptions as Subscription[]) {
        // The chat registers without subscriber lists and keeps none up to date (as Zulip's apply_event).
        const { subscribers: _, ...sub } = added;
        subscriptions.set(sub.stream_id, sub);
        // A known channel takes the subscription's news of its own fields (as register's streams).
        const known = channels.get(sub.stream_id);
        channels.set(sub.stream_id, known ? { ...known, ...pick(sub, Object.keys(known)) } : sub);
      }
      return recountUnread({ ...state, subscriptions, channels }, ctx.book);
    }
    case 'remove': {
      const subscriptions = new Map(state.subscriptions);
      let channels = state.channels;
      for (const { stream_id: id } of event.subscriptions as { stream_id: number }[]) {
        const gone = subscriptions.get(id);
        subscriptions.delete(id);
        // Peers hear of it by peer_remove; the one who left only by this event.
        const channel = channels.get(id);
        const count = gone?.subscriber_count ?? channel?.subscriber_count;
        if (channel && typeof count === 'number') {
          channels = mapWith(channels, id, {
            ...channel,
            subscriber_count: Math.max(0, count - 1),
          });
        }
      }
      return recountUnread({ ...state, subscriptions, channels }, ctx.book);
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
      let { subscriptions, channels } = state;
      const counted = <T extends Channel>(entry: T): T => {
        const before = entry.subscriber_count;
        return typeof before === 'number'
          ? { ...entry, subscriber_count: Math.max(0, before + delta * count) }
          : entry;
      };
      // Both the subscription and the channel (the channel browser reads either).
      for (const id of ids) {
        const sub = subscriptions.get(id);
        if (sub) subscriptions = mapWith(subscriptions, id, counted(sub));
        const channel = channels.get(id);
        if (channel) channels = mapWith(channels, id, counted(channel));
      }
      return { ...state, subscriptions, channels };
    }
    default:
      return state;
  }
};

const onStream: Apply<'stream'> = (state, event, ctx) => {
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
      ] as const) {
        if (key in event) extra[key] = event[key];
      }
      const id = event.stream_id as number;
      let { channels, subscriptions } = state;
      const channel = channels.get(id);
      if (channel) channels = mapWith(channels, id, { ...channel, ...extra });
      const sub = subscriptions.get(id);
      if (sub) subscriptions = mapWith(subscriptions, id, { ...sub, ...extra });
      const next = { ...state, channels, subscriptions };
      if (event.property !== 'name') return next;
      // Messages name their channel too (display_recipient).
      const renamed = [...state.messages.values()]
        .filter((m) => m.type === 'stream' && m.stream_id === id)
        .map((m) => ({ ...m, display_recipient: String(event.value) }));
      return replaceMessages(next, renamed);
    }
    default:
      return state;
  }
};

const onUserTopic: Apply<'user_topic'> = (state, event, ctx) => {
  const entry: UserTopic = {
    stream_id: event.stream_id,
    topic_name: event.topic_name,
    visibility_policy: event.visibility_policy as UserTopic['visibility_policy'],
    last_updated: event.last_updated,
  };
  const lower = entry.topic_name.toLowerCase();
  const others = state.userTopics.filter(
    (t) => !(t.stream_id === entry.stream_id && t.topic_name.toLowerCase() === lower),
  );
  const userTopics = entry.visibility_policy === 0 ? others : [...others, entry];
  return recountUnread({ ...state, userTopics }, ctx.book);
};

const onMutedUsers: Apply<'muted_users'> = (state, event, ctx) => {
  const mutedUserIds = new Set((event.muted_users as { id: number }[]).map((m) => m.id));
  return recountUnread({ ...state, mutedUserIds }, ctx.book);
};

/** Folders in their order (ties by id, as Zulip's order starts as the id). */
export const sortFolders = (folders: ChannelFolder[]) =>
  [...folders].sort((a, b) => a.order - b.order || a.id - b.id);

const onChannelFolder: Apply<'channel_folder'> = (state, event) => {
  switch (event.op) {
    case 'add':
      return {
        ...state,
        // A whole folder, as register's `channel_folders` lists them.
        channelFolders: sortFolders([
          ...state.channelFolders,
          event.channel_folder as ChannelFolder,
        ]),
      };
    case 'update':
      return {
        ...state,
        channelFolders: state.channelFolders.map((f) =>
          f.id === event.channel_folder_id ? { ...f, ...event.data } : f,
        ),
      };
    case 'reorder': {
      const order = event.order as number[];
      return {
        ...state,
        channelFolders: sortFolders(
          state.channelFolders.map((f) =>
            order.includes(f.id) ? { ...f, order: order.indexOf(f.id) } : f,
          ),
        ),
      };
    }
    default:
      return state;
  }
};

export const channelHandlers: Handlers = {
  channel_folder: onChannelFolder,
  subscription: onSubscription,
  stream: onStream,
  user_topic: onUserTopic,
  muted_users: onMutedUsers,
};
