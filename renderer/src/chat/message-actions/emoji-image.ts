import type { ChatState, Reaction } from '../data/model.js';

/** Where Zulip serves the :zulip: emoji's image. */
export const ZULIP_EMOJI_PATH = '/static/generated/emoji/images/emoji/unicode/zulip.png';

/** The image of a non-Unicode reaction (custom emoji, :zulip:); undefined for Unicode emoji. */
export function reactionImage(
  reaction: Pick<Reaction, 'reaction_type' | 'emoji_code'>,
  realmEmoji: ChatState['realm']['emoji'],
  url: (path: string) => string,
): string | undefined {
  if (reaction.reaction_type === 'zulip_extra_emoji') return url(ZULIP_EMOJI_PATH);
  if (reaction.reaction_type === 'realm_emoji') {
    const emoji = realmEmoji[reaction.emoji_code];
    return emoji ? url(emoji.source_url) : undefined;
  }
  return undefined;
}
