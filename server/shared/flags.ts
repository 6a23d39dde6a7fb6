/**
 * Per-user message flags as bits of user_message_flags.flags. Rows exist only
 * where a user's flags differ from the computed default (see db/DESIGN.md).
 */
export const Flag = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
} as const;

export type FlagName = keyof typeof Flag;

/** Flag names as the API lists them, in Zulip's order. */
export function flagNames(bits: number): string[] {
  const names: string[] = [];
  for (const [name, bit] of Object.entries(Flag)) if (bits & bit) names.push(name);
  // Legacy combined flag that older clients still read.
  if (bits & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned)) {
    names.push('wildcard_mentioned');
  }
  return names;
}

/**
 * The flags a recipient has when no row overrides them: read when at or
 * below the conversation's read watermark or sent by the user, else unread.
 */
export function defaultFlags(
  messageId: number,
  senderId: number,
  userId: number,
  readThrough: number,
): number {
  return messageId <= readThrough || senderId === userId ? Flag.read : 0;
}
