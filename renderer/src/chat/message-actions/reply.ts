import type { ComposeTarget, Message } from '../data/model.js';

/** Where a reply to `message` goes: its channel and topic, or its DM conversation. */
export function replyTarget(message: Message, ownUserId: number): ComposeTarget | null {
  if (message.type === 'stream') {
    return message.stream_id === undefined
      ? null
      : { kind: 'channel', channelId: message.stream_id, topic: message.subject };
  }
  if (!Array.isArray(message.display_recipient)) return null;
  const others = message.display_recipient.map((r) => r.id).filter((id) => id !== ownUserId);
  return { kind: 'direct', userIds: others.length > 0 ? others : [ownUserId] };
}

/** An absolute link from a `#narrow/…` fragment. */
export function absoluteLink(fragment: string, origin: string): string {
  const hash = fragment.startsWith('#') ? fragment : `#${fragment}`;
  return new URL(`/${hash}`, origin).toString();
}
