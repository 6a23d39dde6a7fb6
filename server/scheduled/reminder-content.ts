import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { dmGroupMemberIds, type MessageRow } from '../db/queries/messages.js';
import type { StreamRow } from '../db/queries/streams.js';
import { userById } from '../db/queries/users.js';
import {
  directMessageUrl,
  messageLinkSyntax,
  silentMention,
  topicUrl,
  unusedFence,
} from '../markdown/index.js';
import { MAX_MESSAGE_LENGTH, MAX_REMINDER_NOTE_LENGTH } from '../shared/limits.js';

/**
 * The text of a reminder, as Zulip's get_reminder_formatted_content writes
 * it: who said what where, with a link to the message and the message
 * quoted (polls and todo lists are named, not quoted), after the owner's note.
 */

const TRUNCATION_NOTICE = '\n[message truncated]';

const codePoints = (s: string) => [...s].length;

/** Zulip's normalize_note_text: trailing whitespace and leading newlines go; then the length is checked. */
function normalizeNote(note: string): string {
  const body = note.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (codePoints(body) > MAX_REMINDER_NOTE_LENGTH) {
    throw badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  return body;
}

/** Zulip's truncate_content, in code points as Python counts. */
function truncate(content: string, maxLength: number): string {
  const chars = [...content];
  if (chars.length <= maxLength) return content;
  return chars.slice(0, maxLength - TRUNCATION_NOTICE.length).join('') + TRUNCATION_NOTICE;
}

/** Silent mentions of everyone named, as an English list ("A, B, and C"). */
function mentionList(users: ReadonlyArray<{ id: number; full_name: string }>): string {
  return new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(
    users.map(silentMention),
  );
}

/** The widget a message starts, which the reminder names instead of quoting. */
function widgetOf(content: string): string | null {
  if (content.startsWith('/poll')) return 'poll';
  if (content.startsWith('/todo')) return 'todo list';
  return null;
}

/**
 * The reminder's Markdown for `message` (which the owner may access), with
 * the owner's note as given (empty or null for none); a note too long after
 * normalizing is refused.
 */
export function reminderContent(
  ctx: AppContext,
  message: MessageRow,
  stream: StreamRow | undefined,
  rawNote: string | null,
): string {
  const note = rawNote ? normalizeNote(rawNote) : '';
  const sender = userById(ctx.db, message.sender_id)!;
  const senderMention = silentMention(sender);
  const widget = widgetOf(message.content);
  const noteLine = note ? `. Note:\n > ${note}` : '.';
  let content: string;
  let intro: string;
  if (stream) {
    content = `You requested a reminder for the following message${noteLine}\n\n`;
    const url = topicUrl(ctx, stream, message.topic, message.id);
    const where = messageLinkSyntax(stream, message.topic, message.id);
    intro = widget
      ? `${senderMention} [sent](${url}) a ${widget} in ${where}.`
      : `${senderMention} [said](${url}) in ${where}:`;
  } else {
    content = `You requested a reminder for the following direct message${noteLine}\n\n`;
    const participants = dmGroupMemberIds(ctx.db, message.dm_group_id!);
    const others = participants.filter((id) => id !== sender.id);
    const recipients = (others.length > 0 ? others : [sender.id]).map(
      (id) => userById(ctx.db, id)!,
    );
    const url = directMessageUrl(ctx, participants, message.id);
    intro = widget
      ? `${senderMention} [sent](${url}) a ${widget} to ${mentionList(recipients)}.`
      : `${senderMention} [said](${url}) to ${mentionList(recipients)}:`;
  }
  content += intro;
  if (widget) return content;

  content += '\n';
  // Zulip picks the fence from the text above the quote only; the quoted
  // message is included here too, so a message with its own fences stays whole.
  const fence = unusedFence(`${content}\n${message.content}`);
  const overhead = codePoints(`${content}${fence}quote\n\n${fence}`);
  const quoted = truncate(message.content, MAX_MESSAGE_LENGTH - overhead);
  return `${content}${fence}quote\n${quoted}\n${fence}`;
}
