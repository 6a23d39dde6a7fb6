import type { Db } from '../db/open.js';
import { dmGroupMemberIds, topicKey } from '../db/queries/messages.js';
import { subscriptionsOfUser } from '../db/queries/streams.js';
import { unreadMessageRows } from '../db/queries/unread.js';
import { userTopicsOf, VisibilityPolicy } from '../db/queries/user-topics.js';
import { pushTo } from '../shared/collections.js';
import { Flag } from '../shared/flags.js';
import { MAX_UNREAD_MESSAGES } from '../shared/limits.js';
import { topicShownAs } from '../shared/topics.js';

/**
 * Whether a channel message is muted for a user: a muted topic in an
 * unmuted channel, or any topic of a muted channel that the user has not
 * unmuted or followed. "Unmuted" in an unmuted channel is therefore the
 * same as no preference.
 */
export class Muting {
  private readonly mutedChannels = new Set<number>();
  private readonly policies = new Map<string, number>();

  constructor(db: Db, userId: number) {
    for (const sub of subscriptionsOfUser(db, userId)) {
      if (sub.is_muted) this.mutedChannels.add(sub.stream_id);
    }
    for (const row of userTopicsOf(db, userId)) {
      this.policies.set(`${row.stream_id}\n${row.topic_key}`, row.visibility_policy);
    }
  }

  policyOf(streamId: number, topic: string): number {
    return this.policies.get(`${streamId}\n${topicKey(topic)}`) ?? VisibilityPolicy.inherit;
  }

  isMuted(streamId: number, topic: string): boolean {
    const policy = this.policyOf(streamId, topic);
    if (this.mutedChannels.has(streamId)) {
      return policy !== VisibilityPolicy.unmuted && policy !== VisibilityPolicy.followed;
    }
    return policy === VisibilityPolicy.muted;
  }
}

const WILDCARD = Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned;

/** Zulip counts direct mentions always, wildcard mentions only where not muted. */
function isMention(flags: number, muted: boolean): boolean {
  return (flags & Flag.mentioned) !== 0 || ((flags & WILDCARD) !== 0 && !muted);
}

/** Members of direct-message groups, loaded once each. */
class DmMembers {
  private readonly cache = new Map<number, number[]>();
  constructor(private readonly db: Db) {}
  of(dmGroupId: number): number[] {
    let members = this.cache.get(dmGroupId);
    if (!members) {
      members = dmGroupMemberIds(this.db, dmGroupId);
      this.cache.set(dmGroupId, members);
    }
    return members;
  }
}

/** A 1:1 conversation (or a note to self) is a "pm"; three or more people are a "huddle". */
const isOneToOne = (members: number[]) => members.length <= 2;
const otherUserOf = (members: number[], userId: number) =>
  members.find((id) => id !== userId) ?? userId;

export interface UnreadMsgs {
  pms: Array<{ other_user_id: number; sender_id: number; unread_message_ids: number[] }>;
  streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
  huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
  mentions: number[];
  count: number;
  old_unreads_missing: boolean;
}

/**
 * POST /register's unread_msgs (Zulip's get_raw_unread_data and
 * aggregate_unread_data): the newest `cap` unread messages by conversation.
 */
export function unreadMsgs(
  db: Db,
  userId: number,
  options: { emptyTopicName: string | null; cap?: number },
): UnreadMsgs {
  const cap = options.cap ?? MAX_UNREAD_MESSAGES;
  const rows = unreadMessageRows(db, userId, cap).reverse();
  const muting = new Muting(db, userId);
  const members = new DmMembers(db);
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const topics = new Map<
    string,
    { stream_id: number; topic: string; unread_message_ids: number[] }
  >();
  const mentions: number[] = [];
  let count = 0;
  for (const row of rows) {
    const flags = row.flags ?? 0;
    if (row.stream_id !== null) {
      // Topics group case-insensitively under the first (oldest) spelling seen.
      const key = `${row.stream_id}\n${topicKey(row.topic)}`;
      let entry = topics.get(key);
      if (!entry) {
        const topic = topicShownAs(row.topic, options.emptyTopicName);
        entry = { stream_id: row.stream_id, topic, unread_message_ids: [] };
        topics.set(key, entry);
      }
      entry.unread_message_ids.push(row.id);
      const muted = muting.isMuted(row.stream_id, row.topic);
      if (!muted) count++;
      if (isMention(flags, muted)) mentions.push(row.id);
      continue;
    }
    const group = members.of(row.dm_group_id!);
    if (isOneToOne(group)) {
      const other = otherUserOf(group, userId);
      pushTo(pms, other, row.id);
    } else {
      pushTo(huddles, group.join(','), row.id);
    }
    count++;
    if (isMention(flags, false)) mentions.push(row.id);
  }
  return {
    pms: [...pms.entries()]
      .sort(([a], [b]) => a - b)
      .map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...topics.entries()]
      .sort(([a], [b]) => compareTopicKeys(a, b))
      .map(([, entry]) => entry),
    huddles: [...huddles.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    count,
    old_unreads_missing: rows.length === cap,
  };
}

/** Sorts by (stream id, lower-cased topic), as Zulip sorts its tuple keys. */
function compareTopicKeys(a: string, b: string): number {
  const [sa, ta] = splitKey(a);
  const [sb, tb] = splitKey(b);
  if (sa !== sb) return sa - sb;
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

function splitKey(key: string): [number, string] {
  const at = key.indexOf('\n');
  return [Number(key.slice(0, at)), key.slice(at + 1)];
}

export type UnreadMessageDetail =
  | { type: 'private'; user_ids: number[]; mentioned?: true }
  | {
      type: 'stream';
      stream_id: number;
      topic: string;
      unmuted_stream_msg: boolean;
      mentioned?: true;
    };

/**
 * The message_details of an update_message_flags event that marks messages
 * unread, so clients can file them into their unread_msgs structure. `flags`
 * are the messages' flags after the change. Topics are stored names; the
 * event maps the empty topic per client.
 */
export function unreadMessageDetails(
  db: Db,
  userId: number,
  messages: ReadonlyArray<{
    id: number;
    stream_id: number | null;
    dm_group_id: number | null;
    topic: string;
    flags: number;
  }>,
): Record<string, UnreadMessageDetail> {
  const muting = new Muting(db, userId);
  const members = new DmMembers(db);
  const details: Record<string, UnreadMessageDetail> = {};
  for (const m of messages) {
    let detail: UnreadMessageDetail;
    let muted = false;
    if (m.stream_id !== null) {
      muted = muting.isMuted(m.stream_id, m.topic);
      detail = {
        type: 'stream',
        stream_id: m.stream_id,
        topic: m.topic,
        unmuted_stream_msg: !muted,
      };
    } else {
      // Everyone in the conversation but the user (empty for a note to self).
      detail = {
        type: 'private',
        user_ids: members.of(m.dm_group_id!).filter((id) => id !== userId),
      };
    }
    if (isMention(m.flags, muted)) detail.mentioned = true;
    details[String(m.id)] = detail;
  }
  return details;
}
