import type { CustomEmoji } from '../data/model.js';
import { type EmojiRef, emojiGlyph } from './emoji-glyph.js';

/** An emoji inline with text; its name is its accessible label (`:tada:`). */
export function Emoji({
  emoji,
  realmEmoji,
  className = 'emoji',
}: {
  emoji: EmojiRef;
  realmEmoji: Record<string, CustomEmoji>;
  className?: string;
}) {
  const glyph = emojiGlyph(emoji, realmEmoji);
  if (!glyph) return null;
  const label = `:${glyph.name}:`;
  if (glyph.kind === 'image') {
    return <img className={className} src={glyph.url} alt={label} title={label} />;
  }
  // Zulip's markup: the sprite stylesheet draws the picture over the name.
  return (
    <span
      className={`${className} emoji-${glyph.code}`}
      role="img"
      aria-label={label}
      title={label}
    >
      {label}
    </span>
  );
}
