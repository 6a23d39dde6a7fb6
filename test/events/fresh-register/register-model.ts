/**
 * Zulip's apply_event (zerver/lib/events.py) as a client applies it: a
 * `POST /register` answer brought up to date with the events of its queue,
 * using nothing but the answer and the events. The harness compares the
 * result with a fresh register, so an event the server forgets, or one whose
 * payload disagrees with the state, fails by construction.
 *
 * Where Zulip's apply_event asks the database (presence re-read, the
 * max_message_id after a deletion), this model keeps to what the events say
 * and the harness leaves that field out of the comparison (see normalize in
 * harness.ts).
 *
 * The state is the register answer with two parts in a form easy to update
 * (as Zulip's raw_users and raw_unread_msgs): `unread_msgs` as one entry per
 * message, users by id. `toComparable` turns both answers into that form.
 */

// biome-ignore lint/suspicious/noExplicitAny: register answers and events are Zulip's loosely typed JSON
export type Json = any;

export interface UnreadEntry {
  kind: 'stream' | 'pm' | 'huddle';
  stream_id?: number;
  topic?: string;
  other_user_id?: number;
  user_ids_string?: string;
}

export interface ModelOptions {
  ownUserId: number;
  includeSubscribers: boolean;
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);

/** The register answer with its unread messages per message id (Zulip's raw_unread_msgs). */
export function rawUnread(unread: Json): {
  messages: Record<string, UnreadEntry>;
  mentions: number[];
  old_unreads_missing: boolean;
} {
  const messages: Record<string, UnreadEntry> = {};
  for (const s of unread?.streams ?? [])
    for (const id of s.unread_message_ids)
      messages[id] = { kind: 'stream', stream_id: s.stream_id, topic: s.topic };
  for (const p of unread?.pms ?? [])
    for (const id of p.unread_message_ids)
      messages[id] = { kind: 'pm', other_user_id: p.other_user_id ?? p.sender_id };
  for (const h of unread?.huddles ?? [])
    for (const id of h.unread_message_ids)
      messages[id] = { kind: 'huddle', user_ids_string: h.user_ids_string };
  return {
    messages,
    mentions: [...(unread?.mentions ?? [])].sort((a: number, b: number) => a - b),
    old_unreads_missing: unread?.old_unreads_missing ?? false,
  };
}

function sortedIds(ids: Iterable<number>): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

function visibilityOf(state: Json, streamId: number, topic: string): number {
  const lower = topic.toLowerCase();
  const entry = (state.user_topics ?? []).find(
    (t: Json) => t.stream_id === streamId && t.topic_name.toLowerCase() === lower,
  );
  return entry?.visibility_policy ?? 0;
}

/** Zulip's rule for wildcard mentions in unread_msgs.mentions: only where the conversation is not muted. */
function wildcardCounts(state: Json, entry: UnreadEntry): boolean {
  if (entry.kind !== 'stream') return true;
  const sub = (state.subscriptions ?? []).find((s: Json) => s.stream_id === entry.stream_id);
  const policy = visibilityOf(state, entry.stream_id as number, entry.topic ?? '');
  if (policy === 1) return false;
  if (sub?.is_muted) return policy === 2 || policy === 3;
  return true;
}

/**
 * The applied state made comparable with a fresh register: wildcard
 * mentions count where their conversation is not muted now (register
 * applies the muting rules when it is fetched, and muting can change after
 * the message came, e.g. a mention that makes the user follow the topic).
 */
export function settleRegisterState(state: Json): void {
  const raw = state.unread_msgs;
  if (!raw?.wildcard) return;
  const counted = (raw.wildcard as number[]).filter((id) => {
    const entry = raw.messages[String(id)];
    return entry !== undefined && wildcardCounts(state, entry);
  });
  raw.mentions = sortedIds([...raw.mentions, ...counted]);
  delete raw.wildcard;
}

function applyUnreadMessage(state: Json, message: Json, flags: string[], own: number): void {
  const raw = state.unread_msgs;
  if (flags.includes('read')) return;
  const id = String(message.id);
  if (message.type === 'stream') {
    raw.messages[id] = {
      kind: 'stream',
      stream_id: message.stream_id,
      topic: message.subject ?? message.topic,
    };
  } else {
    const others = (message.display_recipient as { id: number }[])
      .map((r) => r.id)
      .filter((uid) => uid !== own);
    if (others.length <= 1) {
      raw.messages[id] = { kind: 'pm', other_user_id: others[0] ?? own };
    } else {
      raw.messages[id] = {
        kind: 'huddle',
        user_ids_string: sortedIds(
          (message.display_recipient as { id: number }[]).map((r) => r.id),
        ).join(','),
      };
    }
  }
  const wildcard = flags.some((f) =>
    ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'].includes(f),
  );
  if (flags.includes('mentioned')) raw.mentions = sortedIds([...raw.mentions, message.id]);
  else if (wildcard) raw.wildcard = sortedIds([...(raw.wildcard ?? []), message.id]);
}

function forgetUnread(state: Json, id: number): void {
  delete state.unread_msgs.messages[String(id)];
  state.unread_msgs.mentions = state.unread_msgs.mentions.filter((m: number) => m !== id);
  if (state.unread_msgs.wildcard)
    state.unread_msgs.wildcard = state.unread_msgs.wildcard.filter((m: number) => m !== id);
}

function channelLists(state: Json): Json[][] {
  return [state.subscriptions ?? [], state.unsubscribed ?? [], state.never_subscribed ?? []];
}

function updateUser(state: Json, person: Json, own: number): void {
  const uid = person.user_id;
  if (uid === own) {
    if ('avatar_url' in person) {
      for (const key of ['avatar_source', 'avatar_url', 'avatar_url_medium'])
        if (key in person) state[key] = person[key];
    }
    if ('role' in person) {
      state.is_admin = person.role === 100 || person.role === 200;
      state.is_owner = person.role === 100;
      // At least a moderator since Zulip 11 (feature level 380).
      state.is_moderator = [100, 200, 300].includes(person.role);
      state.is_guest = person.role === 600;
    }
    for (const key of ['delivery_email', 'email', 'full_name', 'is_billing_admin'])
      if (key in person && key in state) state[key] = person[key];
    if ('new_email' in person) state.email = person.new_email;
  }
  const user = state.users[uid];
  if (!user) return;
  for (const key of Object.keys(user)) if (key in person) user[key] = person[key];
  if ('role' in person) {
    user.is_admin = person.role === 100 || person.role === 200;
    user.is_owner = person.role === 100;
    user.is_guest = person.role === 600;
  }
  if ('is_billing_admin' in person) user.is_billing_admin = person.is_billing_admin;
  if (person.custom_profile_field) {
    const field = person.custom_profile_field;
    const key = String(field.id);
    user.profile_data ??= {};
    if (field.value === null) delete user.profile_data[key];
    else
      user.profile_data[key] =
        'rendered_value' in field
          ? { value: field.value, rendered_value: field.rendered_value }
          : { value: field.value };
  }
  if ('new_email' in person) user.email = person.new_email;
  if ('is_active' in person) {
    user.is_active = person.is_active;
    if (!person.is_active) {
      // Deactivated users are members of no group (feature level 303): clients drop them.
      for (const group of state.realm_user_groups ?? [])
        group.members = group.members.filter((m: number) => m !== uid);
      // And of no anonymous group a realm or user-group setting names (Zulip's apply_event).
      const dropFrom = (holder: Json, key: string) => {
        const value = holder[key];
        if (value && typeof value === 'object' && Array.isArray(value.direct_members))
          holder[key] = {
            ...value,
            direct_members: value.direct_members.filter((m: number) => m !== uid),
          };
      };
      for (const key of Object.keys(state)) if (key.startsWith('realm_')) dropFrom(state, key);
      for (const group of state.realm_user_groups ?? [])
        for (const key of Object.keys(group)) if (key.endsWith('_group')) dropFrom(group, key);
      for (const sub of state.subscriptions ?? [])
        if (Array.isArray(sub.subscribers))
          sub.subscribers = sub.subscribers.filter((s: number) => s !== uid);
    }
  }
}

function applyRealmUser(state: Json, event: Json, options: ModelOptions): void {
  const person = event.person;
  switch (event.op) {
    case 'add': {
      const user = structuredClone(person);
      user.is_active = true;
      if (!user.is_bot) user.profile_data = {};
      state.users[person.user_id] = user;
      return;
    }
    case 'update':
      updateUser(state, person, options.ownUserId);
      return;
    case 'remove':
      // user_list_incomplete is false: Zulip puts the inaccessible-user stand-in in its place.
      if (state.users[person.user_id]) state.users[person.user_id] = structuredClone(person);
      return;
  }
}

function applyStream(state: Json, event: Json, options: ModelOptions): void {
  switch (event.op) {
    case 'create':
      for (const stream of event.streams) {
        const data = structuredClone(stream);
        if (options.includeSubscribers) data.subscribers = [];
        state.never_subscribed.push(data);
        state.streams?.push(structuredClone(stream));
      }
      state.never_subscribed.sort(byName);
      state.streams?.sort(byName);
      return;
    case 'delete': {
      const gone = new Set<number>(event.stream_ids ?? event.streams.map((s: Json) => s.stream_id));
      const keep = (s: Json) => !gone.has(s.stream_id);
      for (const key of ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed'])
        if (state[key]) state[key] = state[key].filter(keep);
      return;
    }
    case 'update': {
      const change = (obj: Json, onlyKnown: boolean) => {
        if (obj.stream_id !== event.stream_id) return;
        if (onlyKnown && !(event.property in obj)) return;
        obj[event.property] = event.value;
        if (event.property === 'description') obj.rendered_description = event.rendered_description;
        for (const key of ['history_public_to_subscribers', 'is_web_public'])
          if (event[key] !== undefined && event[key] !== null) obj[key] = event[key];
      };
      for (const list of channelLists(state)) for (const obj of list) change(obj, false);
      for (const obj of state.streams ?? []) change(obj, true);
      return;
    }
  }
}

function applySubscription(state: Json, event: Json, options: ModelOptions): void {
  switch (event.op) {
    case 'add': {
      const added = new Set(event.subscriptions.map((s: Json) => s.stream_id));
      const existing = new Set(state.subscriptions.map((s: Json) => s.stream_id));
      for (const sub of event.subscriptions) {
        if (existing.has(sub.stream_id)) continue;
        const copy = structuredClone(sub);
        if (!options.includeSubscribers) delete copy.subscribers;
        state.subscriptions.push(copy);
      }
      // The channel's own entry counts the new subscriber as the subscription does.
      for (const stream of state.streams ?? []) {
        const sub = event.subscriptions.find((s: Json) => s.stream_id === stream.stream_id);
        if (sub && typeof sub.subscriber_count === 'number')
          stream.subscriber_count = sub.subscriber_count;
      }
      state.unsubscribed = state.unsubscribed.filter((s: Json) => !added.has(s.stream_id));
      state.never_subscribed = state.never_subscribed.filter((s: Json) => !added.has(s.stream_id));
      return;
    }
    case 'remove': {
      const removed = new Set(event.subscriptions.map((s: Json) => s.stream_id));
      const gone = state.subscriptions.filter((s: Json) => removed.has(s.stream_id));
      for (const sub of gone) {
        if (options.includeSubscribers && Array.isArray(sub.subscribers))
          sub.subscribers = sub.subscribers.filter((u: number) => u !== options.ownUserId);
        if (typeof sub.subscriber_count === 'number') sub.subscriber_count -= 1;
      }
      state.unsubscribed.push(...gone);
      state.subscriptions = state.subscriptions.filter((s: Json) => !removed.has(s.stream_id));
      return;
    }
    case 'update':
      for (const sub of state.subscriptions)
        if (sub.stream_id === event.stream_id) sub[event.property] = event.value;
      return;
    case 'peer_add':
    case 'peer_remove': {
      const streamIds = new Set(event.stream_ids);
      const userIds: number[] = event.user_ids;
      const lists = [...channelLists(state), state.streams ?? []];
      for (const list of lists) {
        for (const sub of list) {
          if (!streamIds.has(sub.stream_id)) continue;
          if (Array.isArray(sub.subscribers)) {
            const before = new Set<number>(sub.subscribers);
            const after = new Set(before);
            for (const u of userIds) {
              if (event.op === 'peer_add') after.add(u);
              else after.delete(u);
            }
            sub.subscribers = sortedIds(after);
            if (typeof sub.subscriber_count === 'number')
              sub.subscriber_count += after.size - before.size;
          } else if (typeof sub.subscriber_count === 'number') {
            sub.subscriber_count += (event.op === 'peer_add' ? 1 : -1) * userIds.length;
          }
        }
      }
      return;
    }
  }
}

function applyUserGroup(state: Json, event: Json): void {
  const groups: Json[] = state.realm_user_groups;
  const group = groups.find((g) => g.id === event.group_id);
  switch (event.op) {
    case 'add':
      groups.push(structuredClone(event.group));
      groups.sort(byId);
      return;
    case 'remove':
      state.realm_user_groups = groups.filter((g) => g.id !== event.group_id);
      return;
    case 'update':
      if (group) Object.assign(group, event.data);
      return;
    case 'add_members':
      if (group) group.members = sortedIds([...group.members, ...event.user_ids]);
      return;
    case 'remove_members':
      if (group) group.members = group.members.filter((u: number) => !event.user_ids.includes(u));
      return;
    case 'add_subgroups':
      if (group)
        group.direct_subgroup_ids = sortedIds([
          ...group.direct_subgroup_ids,
          ...event.direct_subgroup_ids,
        ]);
      return;
    case 'remove_subgroups':
      if (group)
        group.direct_subgroup_ids = group.direct_subgroup_ids.filter(
          (g: number) => !event.direct_subgroup_ids.includes(g),
        );
      return;
  }
}

function applyUserStatus(state: Json, event: Json): void {
  const key = String(event.user_id);
  const status = { ...(state.user_status[key] ?? {}) };
  if (event.away !== undefined && event.away !== null) {
    if (event.away) status.away = true;
    else delete status.away;
  }
  if (event.status_text !== undefined && event.status_text !== null) {
    if (event.status_text === '') delete status.status_text;
    else status.status_text = event.status_text;
  }
  if (event.emoji_name !== undefined && event.emoji_name !== null) {
    for (const field of ['emoji_name', 'emoji_code', 'reaction_type']) {
      if (event[field] === undefined || event[field] === null) continue;
      if (event.emoji_name === '' || event[field] === '') delete status[field];
      else status[field] = event[field];
    }
  }
  if (Object.keys(status).length === 0) delete state.user_status[key];
  else state.user_status[key] = status;
}

function applyRealm(state: Json, event: Json): void {
  if (event.op === 'update') {
    state[`realm_${event.property}`] = event.value;
    if (event.property === 'jitsi_server_url')
      state.jitsi_server_url = event.value ?? state.server_jitsi_server_url;
  } else if (event.op === 'update_dict') {
    for (const [key, value] of Object.entries(event.data as Record<string, Json>)) {
      state[`realm_${key}`] = value;
      if (key === 'authentication_methods') {
        state.realm_password_auth_enabled = Boolean(
          value.Email?.enabled ?? value.password?.enabled,
        );
        state.realm_email_auth_enabled = Boolean(value.Email?.enabled ?? value.email?.enabled);
      }
    }
  }
}

function replaceById(list: Json[], key: string, item: Json): void {
  const index = list.findIndex((x) => x[key] === item[key]);
  if (index >= 0) list[index] = item;
}

/** One event applied to the (comparable) register state, in place. */
export function applyRegisterEvent(state: Json, event: Json, options: ModelOptions): void {
  const own = options.ownUserId;
  switch (event.type) {
    case 'message': {
      const message = event.message;
      state.max_message_id = Math.max(state.max_message_id, message.id);
      applyUnreadMessage(state, message, event.flags ?? [], own);
      if (message.type !== 'stream') {
        const others = sortedIds(
          (message.display_recipient as { id: number }[]).map((r) => r.id).filter((u) => u !== own),
        );
        const key = others.join(',');
        const conversations: Json[] = state.recent_private_conversations;
        const existing = conversations.find((c) => c.user_ids.join(',') === key);
        if (existing) existing.max_message_id = message.id;
        else conversations.push({ user_ids: others, max_message_id: message.id });
        // As Zulip's post_process_state: newest conversation first.
        conversations.sort((a, b) => b.max_message_id - a.max_message_id);
        return;
      }
      for (const list of [state.subscriptions ?? [], state.streams ?? []])
        for (const s of list)
          if (s.stream_id === message.stream_id && s.first_message_id === null)
            s.first_message_id = message.id;
      return;
    }
    case 'update_message': {
      // Moves re-file unread messages; content edits touch nothing in register.
      for (const id of event.message_ids ?? []) {
        const entry = state.unread_msgs.messages[String(id)];
        if (entry?.kind !== 'stream') continue;
        if ('new_stream_id' in event) entry.stream_id = event.new_stream_id;
        if ('subject' in event) entry.topic = event.subject;
      }
      return;
    }
    case 'delete_message': {
      const ids: number[] = event.message_ids ?? [event.message_id];
      for (const id of ids) forgetUnread(state, id);
      return;
    }
    case 'update_message_flags': {
      const ids: number[] = event.messages;
      if (event.flag === 'read' && event.op === 'add')
        for (const id of ids) forgetUnread(state, id);
      if (event.flag === 'read' && event.op === 'remove') {
        for (const [id, detail] of Object.entries(event.message_details ?? {}) as [
          string,
          Json,
        ][]) {
          const entry: UnreadEntry =
            detail.type === 'stream'
              ? { kind: 'stream', stream_id: detail.stream_id, topic: detail.topic }
              : detail.user_ids && detail.user_ids.length > 1
                ? {
                    kind: 'huddle',
                    user_ids_string: sortedIds([...detail.user_ids, own]).join(','),
                  }
                : { kind: 'pm', other_user_id: detail.user_ids?.[0] ?? own };
          state.unread_msgs.messages[id] = entry;
          if (detail.mentioned)
            state.unread_msgs.mentions = sortedIds([...state.unread_msgs.mentions, Number(id)]);
        }
      }
      if (event.flag === 'starred') {
        if (event.op === 'add') state.starred_messages = [...state.starred_messages, ...ids];
        else
          state.starred_messages = state.starred_messages.filter((m: number) => !ids.includes(m));
      }
      return;
    }
    case 'realm_user':
      applyRealmUser(state, event, options);
      return;
    case 'realm_bot': {
      const bots: Json[] = state.realm_bots;
      if (event.op === 'add') bots.push(structuredClone(event.bot));
      else if (event.op === 'delete' || event.op === 'remove')
        state.realm_bots = bots.filter((b) => b.user_id !== event.bot.user_id);
      else if (event.op === 'update') {
        const bot = bots.find((b) => b.user_id === event.bot.user_id);
        if (bot) Object.assign(bot, event.bot);
      }
      return;
    }
    case 'stream':
      applyStream(state, event, options);
      return;
    case 'subscription':
      applySubscription(state, event, options);
      return;
    case 'default_streams':
      state.realm_default_streams = event.default_streams;
      return;
    case 'default_stream_groups':
      state.realm_default_stream_groups = event.default_stream_groups;
      return;
    case 'realm':
      applyRealm(state, event);
      return;
    case 'realm_user_settings_defaults':
      state.realm_user_settings_defaults[event.property] = event.value;
      return;
    case 'user_settings':
      state.user_settings[event.property] = event.value;
      return;
    case 'update_display_settings':
    case 'update_global_notifications':
      // Legacy duplicates of user_settings; the user_settings_object capability leaves them out.
      return;
    case 'user_group':
      applyUserGroup(state, event);
      return;
    case 'user_status':
      applyUserStatus(state, event);
      return;
    case 'user_topic': {
      const lower = String(event.topic_name).toLowerCase();
      state.user_topics = state.user_topics.filter(
        (t: Json) => !(t.stream_id === event.stream_id && t.topic_name.toLowerCase() === lower),
      );
      if (event.visibility_policy !== 0) {
        const { stream_id, topic_name, visibility_policy, last_updated } = event;
        state.user_topics.push({ stream_id, topic_name, visibility_policy, last_updated });
      }
      return;
    }
    case 'muted_topics':
      state.muted_topics = event.muted_topics;
      return;
    case 'muted_users':
      state.muted_users = event.muted_users;
      return;
    case 'alert_words':
      state.alert_words = event.alert_words;
      return;
    case 'realm_emoji':
      state.realm_emoji = event.realm_emoji;
      return;
    case 'realm_linkifiers':
      state.realm_linkifiers = event.realm_linkifiers;
      return;
    case 'realm_filters':
      state.realm_filters = event.realm_filters;
      return;
    case 'realm_playgrounds':
      state.realm_playgrounds = event.realm_playgrounds;
      return;
    case 'realm_domains':
      if (event.op === 'add') state.realm_domains.push(event.realm_domain);
      else if (event.op === 'change') {
        for (const d of state.realm_domains)
          if (d.domain === event.realm_domain.domain)
            d.allow_subdomains = event.realm_domain.allow_subdomains;
      } else if (event.op === 'remove')
        state.realm_domains = state.realm_domains.filter((d: Json) => d.domain !== event.domain);
      return;
    case 'custom_profile_fields': {
      state.custom_profile_fields = event.fields;
      const ids = new Set(event.fields.map((f: Json) => String(f.id)));
      for (const user of Object.values(state.users) as Json[]) {
        if (!user.profile_data) continue;
        for (const key of Object.keys(user.profile_data))
          if (!ids.has(key)) delete user.profile_data[key];
      }
      return;
    }
    case 'presence': {
      // The modern (simplified_presence_events) shape carries the records themselves.
      for (const [id, times] of Object.entries(event.presences ?? {})) state.presences[id] = times;
      if ('presence_last_update_id' in event)
        state.presence_last_update_id = event.presence_last_update_id;
      return;
    }
    case 'drafts':
      if (event.op === 'add') state.drafts.push(...event.drafts);
      else if (event.op === 'update') replaceById(state.drafts, 'id', event.draft);
      else if (event.op === 'remove')
        state.drafts = state.drafts.filter((d: Json) => d.id !== event.draft_id);
      return;
    case 'scheduled_messages': {
      const byTime = (a: Json, b: Json) =>
        a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp;
      if (event.op === 'add') state.scheduled_messages.push(...event.scheduled_messages);
      else if (event.op === 'update')
        replaceById(state.scheduled_messages, 'scheduled_message_id', event.scheduled_message);
      else if (event.op === 'remove')
        state.scheduled_messages = state.scheduled_messages.filter(
          (m: Json) => m.scheduled_message_id !== event.scheduled_message_id,
        );
      state.scheduled_messages.sort(byTime);
      return;
    }
    case 'reminders':
      if (event.op === 'add') state.reminders.push(...event.reminders);
      else if (event.op === 'remove')
        state.reminders = state.reminders.filter((r: Json) => r.reminder_id !== event.reminder_id);
      return;
    case 'saved_snippets':
      if (event.op === 'add') state.saved_snippets.push(event.saved_snippet);
      else if (event.op === 'update') replaceById(state.saved_snippets, 'id', event.saved_snippet);
      else if (event.op === 'remove')
        state.saved_snippets = state.saved_snippets.filter(
          (s: Json) => s.id !== event.saved_snippet_id,
        );
      return;
    case 'navigation_view':
      if (event.op === 'add') state.navigation_views.push(event.navigation_view);
      else if (event.op === 'update') {
        for (const v of state.navigation_views)
          if (v.fragment === event.fragment) Object.assign(v, event.data);
      } else if (event.op === 'remove')
        state.navigation_views = state.navigation_views.filter(
          (v: Json) => v.fragment !== event.fragment,
        );
      return;
    case 'channel_folder':
      if (event.op === 'add') state.channel_folders.push(event.channel_folder);
      else if (event.op === 'update') {
        for (const f of state.channel_folders)
          if (f.id === event.channel_folder_id) Object.assign(f, event.data);
      } else if (event.op === 'reorder') {
        const order: number[] = event.order;
        for (const f of state.channel_folders) f.order = order.indexOf(f.id);
        state.channel_folders.sort((a: Json, b: Json) => a.order - b.order);
      }
      return;
    case 'onboarding_steps':
      state.onboarding_steps = event.onboarding_steps;
      return;
    case 'device':
      if (event.op === 'add') state.devices[String(event.device_id)] = deviceStandIn();
      else if (event.op === 'remove') delete state.devices[String(event.device_id)];
      return;
    case 'has_zoom_token':
      state.has_zoom_token = event.value;
      return;
    default:
      // reaction, submessage, typing, attachment, realm_export, invites_changed,
      // heartbeat, restart: nothing in register (as Zulip's apply_event).
      return;
  }
}

/** A device as register lists one with no push registration. */
function deviceStandIn(): Json {
  return {
    push_key_id: null,
    push_token_id: null,
    pending_push_token_id: null,
    push_token_last_updated_timestamp: null,
    push_registration_error_code: null,
  };
}

/**
 * A register answer in the form the model updates and the harness compares:
 * users by id (active, non-active and cross-realm together, each with
 * is_active), unread messages per message id.
 */
export function toComparable(answer: Json): Json {
  const state = structuredClone(answer);
  const users: Record<string, Json> = {};
  for (const [list, active] of [
    [state.realm_users, true],
    [state.realm_non_active_users, false],
  ] as [Json[] | undefined, boolean][]) {
    for (const user of list ?? [])
      users[user.user_id] = { ...user, is_active: user.is_active ?? active };
  }
  delete state.realm_users;
  delete state.realm_non_active_users;
  state.users = users;
  if (state.unread_msgs) state.unread_msgs = rawUnread(state.unread_msgs);
  return state;
}

export { byName };
