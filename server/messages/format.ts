import type { AppContext } from '../core/context.js';
import {
  dmGroupMemberIds,
  type MessageRow,
  reactionsFor,
  type SubmessageRow,
  submessagesFor,
} from '../db/queries/messages.js';
import { streamById } from '../db/queries/streams.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { topicLinks } from '../markdown/index.js';
import { pushTo } from '../shared/collections.js';
import { loadRealm } from '../shared/realm.js';
import { topicForClient } from '../shared/topics.js';
import type {
  DisplayRecipientUser,
  Message,
  Reaction,
  Submessage,
} from '../shared/zulip-api/index.js';
import {
  INACCESSIBLE_USER_AVATAR_URL,
  INACCESSIBLE_USER_NAME,
  inaccessibleUserEmail,
} from '../user-access/index.js';
import { apiEmail, avatarUrl } from '../users/index.js';

/** A message a send just stored, with what the send already read for it. */
export interface NewMessageRecord {
  row: MessageRow;
  sender: UserRow;
  /** The channel's name, for a channel message. */
  streamName: string | undefined;
  /** Its submessages (a widget's declaration); a new message has no reactions. */
  submessages: SubmessageRow[];
}

const submessageDict = (s: SubmessageRow): Submessage => ({
  id: s.id,
  message_id: s.message_id,
  sender_id: s.sender_id,
  msg_type: s.msg_type,
  content: s.content,
});

export interface MessageFormatOptions {
  applyMarkdown: boolean;
  /** Without it an empty topic is shown as realm_empty_topic_display_name. */
  allowEmptyTopicName: boolean;
}

/**
 * Zulip's finalize_payload for a reader who may not see the sender (limited
 * user access for guests): the sender's name, address and picture become
 * the "Unknown user" ones; the id stays.
 */
export function hideSender(ctx: AppContext, message: Record<string, unknown>): void {
  message.sender_full_name = INACCESSIBLE_USER_NAME;
  message.sender_email = inaccessibleUserEmail(ctx, message.sender_id as number);
  message.avatar_url = INACCESSIBLE_USER_AVATAR_URL;
}

/** Zulip's recipient ids, synthesized: channels and DM conversations in separate ranges. */
export const DM_RECIPIENT_ID_BASE = 1_000_000_000;
export const recipientIdOf = (m: Pick<MessageRow, 'stream_id' | 'dm_group_id'>) =>
  m.stream_id !== null ? m.stream_id : DM_RECIPIENT_ID_BASE + m.dm_group_id!;

/**
 * Builds Zulip's message dicts. One instance per request (or per event): it
 * caches users, channels and conversation members across messages.
 */
export class MessageFormatter {
  private readonly users = new Map<number, UserRow | undefined>();
  private readonly members = new Map<number, number[]>();
  private readonly streamNames = new Map<number, string>();
  private readonly emailDomain: string;
  private readonly emptyTopicName: string;

  /** Message dicts do not depend on who reads them; per-user data (flags) is added by callers. */
  constructor(private readonly ctx: AppContext) {
    const realm = loadRealm(ctx);
    this.emailDomain = realm.row.email_domain;
    this.emptyTopicName = realm.settings.empty_topic_display_name;
  }

  user(id: number): UserRow | undefined {
    if (!this.users.has(id)) this.users.set(id, userById(this.ctx.db, id));
    return this.users.get(id);
  }

  dmMembers(dmGroupId: number): number[] {
    let list = this.members.get(dmGroupId);
    if (!list) {
      list = dmGroupMemberIds(this.ctx.db, dmGroupId);
      this.members.set(dmGroupId, list);
    }
    return list;
  }

  streamName(streamId: number): string {
    let name = this.streamNames.get(streamId);
    if (name === undefined) {
      name = streamById(this.ctx.db, streamId)?.name ?? '';
      this.streamNames.set(streamId, name);
    }
    return name;
  }

  displayTopic(topic: string, allowEmpty: boolean): string {
    return topicForClient(topic, this.emptyTopicName, allowEmpty);
  }

  /** The message dicts, in the order given. */
  format(rows: MessageRow[], options: MessageFormatOptions): Message[] {
    const ids = rows.map((r) => r.id);
    const reactions = new Map<number, Reaction[]>();
    for (const r of reactionsFor(this.ctx.db, ids)) {
      pushTo(reactions, r.message_id, {
        emoji_name: r.emoji_name,
        emoji_code: r.emoji_code,
        reaction_type: r.reaction_type,
        user_id: r.user_id,
      });
    }
    const submessages = new Map<number, Submessage[]>();
    for (const s of submessagesFor(this.ctx.db, ids)) {
      pushTo(submessages, s.message_id, submessageDict(s));
    }
    return rows.map((row) =>
      this.formatOne(row, options, reactions.get(row.id) ?? [], submessages.get(row.id) ?? []),
    );
  }

  /** The dict of a message just sent, from what its send read: no query for a channel message. */
  formatNew(message: NewMessageRecord, options: MessageFormatOptions): Message {
    const { row } = message;
    this.users.set(message.sender.id, message.sender);
    if (row.stream_id !== null && message.streamName !== undefined) {
      this.streamNames.set(row.stream_id, message.streamName);
    }
    return this.formatOne(row, options, [], message.submessages.map(submessageDict));
  }

  private formatOne(
    row: MessageRow,
    options: MessageFormatOptions,
    reactions: Reaction[],
    submessages: Submessage[],
  ): Message {
    const sender = this.user(row.sender_id);
    const isStream = row.stream_id !== null;
    const message: Message = {
      id: row.id,
      sender_id: row.sender_id,
      sender_full_name: sender?.full_name ?? 'Unknown user',
      sender_email: sender ? apiEmail(sender, this.emailDomain) : '',
      sender_realm_str: 'hearth',
      avatar_url: sender ? avatarUrl(sender) : null,
      client: row.sending_client,
      content: options.applyMarkdown ? row.rendered_content : row.content,
      content_type: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
      display_recipient: isStream
        ? this.streamName(row.stream_id!)
        : this.dmRecipients(row.dm_group_id!),
      is_me_message: row.is_me_message === 1,
      reactions,
      recipient_id: recipientIdOf(row),
      subject: isStream ? this.displayTopic(row.topic, options.allowEmptyTopicName) : '',
      topic_links: isStream && row.topic ? topicLinks(this.ctx, row.topic) : [],
      submessages,
      timestamp: row.date_sent,
      type: isStream ? 'stream' : 'private',
    };
    if (row.stream_id !== null) message.stream_id = row.stream_id;
    if (row.last_edit_time !== null) message.last_edit_timestamp = row.last_edit_time;
    if (row.last_moved_time !== null) message.last_moved_timestamp = row.last_moved_time;
    return message;
  }

  private dmRecipients(dmGroupId: number): DisplayRecipientUser[] {
    return this.dmMembers(dmGroupId).map((id) => {
      const user = this.user(id);
      return {
        id,
        email: user ? apiEmail(user, this.emailDomain) : '',
        full_name: user?.full_name ?? 'Unknown user',
        is_mirror_dummy: false,
      };
    });
  }
}
