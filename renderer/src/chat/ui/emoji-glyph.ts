/**
 * How an emoji given as Zulip gives it (`emoji_name`, `emoji_code`,
 * `reaction_type`, as in reactions and statuses) is drawn: Unicode emoji
 * from the sprite sheet by their code (`emoji-sprites.ts`), custom emoji as
 * their image. Pure, so it is shared and unit-tested.
 */
import type { CustomEmoji } from '../data/model.js';

export interface EmojiRef {
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export type EmojiGlyph =
  | { kind: 'sprite'; code: string; name: string }
  | { kind: 'image'; url: string; name: string };

/** A Unicode emoji code as Zulip writes them: hex code points joined by `-` (`1f1fa-1f1f8`). */
export const isUnicodeCode = (code: string) => /^[0-9a-f]{1,6}(-[0-9a-f]{1,6})*$/.test(code);

/** Where Hearth (like Zulip) serves the image of the built-in `:zulip:` emoji. */
export const ZULIP_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

/** The glyph to show for an emoji, or null when there is none (no emoji, or one gone). */
export function emojiGlyph(
  emoji: EmojiRef,
  realmEmoji: Record<string, CustomEmoji>,
): EmojiGlyph | null {
  const name = emoji.emoji_name ?? '';
  const code = emoji.emoji_code ?? '';
  if (!name || !code) return null;
  switch (emoji.reaction_type ?? 'unicode_emoji') {
    case 'unicode_emoji':
      return isUnicodeCode(code) ? { kind: 'sprite', code, name } : null;
    case 'realm_emoji': {
      const custom = realmEmoji[code];
      return custom ? { kind: 'image', url: custom.source_url, name } : null;
    }
    case 'zulip_extra_emoji':
      return { kind: 'image', url: ZULIP_EMOJI_URL, name };
    default:
      return null;
  }
}
