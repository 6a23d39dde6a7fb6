import type { ChatState, Message } from '../../data/model.js';

/**
 * Which conversation a message belongs to, as the feed groups them: a channel
 * and topic (topics compare without case, as the server's do) or a set of
 * direct-message participants.
 */
export function conversationKey(message: Message): string {
  if (message.type === 'stream') {
    return `channel:${message.stream_id}:${message.subject.toLowerCase()}`;
  }
  const ids = Array.isArray(message.display_recipient)
    ? message.display_recipient.map((r) => r.id).sort((a, b) => a - b)
    : [];
  return `dm:${ids.join(',')}`;
}

/** The other participants of a DM (yourself alone for a note-to-self), by id. */
export function dmParticipants(message: Message, ownUserId: number): number[] {
  if (!Array.isArray(message.display_recipient)) return [];
  const ids = message.display_recipient.map((r) => r.id);
  const others = ids.filter((id) => id !== ownUserId);
  return others.length > 0 ? others : [ownUserId];
}

/** People's names for a DM conversation, from the store where it knows them. */
export function participantNames(userIds: number[], users: ChatState['users']): string {
  return userIds.map((id) => users.get(id)?.full_name ?? `User ${id}`).join(', ');
}

/** Consecutive messages in the same conversation collapse under one header; same for senders. */
export interface FeedRowShape {
  id: number;
  /** First message of a run in one conversation: draws the recipient header. */
  startsConversation: boolean;
  /** First message of a run by one sender within the conversation: draws name and avatar. */
  startsSenderRun: boolean;
  /** The calendar day changed from the previous message (shown in the header). */
  startsDay: boolean;
}

/** Messages further apart than this start a new sender run even from the same person. */
const SENDER_RUN_GAP_SECONDS = 10 * 60;

export function feedRows(ids: readonly number[], messages: Map<number, Message>): FeedRowShape[] {
  const rows: FeedRowShape[] = [];
  let previous: Message | undefined;
  for (const id of ids) {
    const message = messages.get(id);
    if (!message) continue;
    const newConversation = !previous || conversationKey(previous) !== conversationKey(message);
    const newDay = !previous || dayOf(previous.timestamp) !== dayOf(message.timestamp);
    const newSender =
      newConversation ||
      newDay ||
      previous?.sender_id !== message.sender_id ||
      message.timestamp - (previous?.timestamp ?? 0) > SENDER_RUN_GAP_SECONDS;
    rows.push({
      id,
      startsConversation: newConversation || newDay,
      startsSenderRun: newSender,
      startsDay: newDay,
    });
    previous = message;
  }
  return rows;
}

const dayOf = (timestamp: number) => new Date(timestamp * 1000).toDateString();
