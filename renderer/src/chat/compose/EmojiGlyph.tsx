import type { EmojiChoice } from './autocomplete.js';

/**
 * One emoji as the person will see it: the picture from the sprite sheet
 * (`code` may be a skin-toned variant), or the custom image.
 */
export function EmojiGlyph({
  emoji,
}: {
  emoji: Pick<EmojiChoice, 'code' | 'type' | 'url' | 'name'>;
}) {
  if (emoji.type !== 'unicode_emoji' && emoji.url) {
    return <img className="emoji-glyph" src={emoji.url} alt="" width={20} height={20} />;
  }
  return (
    <span className={`emoji-glyph emoji emoji-${emoji.code}`} aria-hidden="true">
      :{emoji.name}:
    </span>
  );
}
