/**
 * Emoji drawn as pictures rather than with the computer's emoji font, which
 * many machines lack (an empty box in its place): the server's sprite
 * stylesheet (Google's Noto Emoji, as Zulip uses) draws every element with
 * Zulip's `emoji emoji-{code}` classes; emoji typed as characters, which the
 * server's Markdown leaves as text (skin tones, sequences Zulip has no name
 * for), get that markup here.
 */

export const EMOJI_SPRITE_CSS = '/static/generated/emoji/google-sprite.css';

let linked = false;

/** Adds the sprite stylesheet to the page, once; it loads without holding up the first paint. */
export function linkEmojiSprites(url: (path: string) => string): void {
  if (linked || typeof document === 'undefined') return;
  linked = true;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = url(EMOJI_SPRITE_CSS);
  document.head.append(link);
}

/** The server's Unicode emoji pattern (server/markdown/patterns.ts): keycaps, flags, pictographs with modifiers and ZWJ parts. */
const EMOJI_SEQUENCE =
  /[#*0-9]\uFE0F?\u20E3|\p{Regional_Indicator}{2}|\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*)*/gu;

/** Cheap first look: text with no character from the emoji ranges needs no walk. */
const MAY_HAVE_EMOJI = /[\u2000-\u3300]|[\uD83C-\uD83E]|\u20E3/;

/** Zulip's emoji code of a typed sequence: its code points in hex, without FE0F. */
export function emojiCodeOf(sequence: string): string {
  return Array.from(sequence.replace(/\uFE0F/g, ''), (c) =>
    c.codePointAt(0)!.toString(16).padStart(4, '0'),
  ).join('-');
}

/** Whether `text` may hold emoji typed as characters (a quick test before walking it). */
export const mayHaveTypedEmoji = (text: string) => MAY_HAVE_EMOJI.test(text);

/**
 * Wraps emoji typed as characters in `root`'s text in Zulip's markup, so the
 * sprite sheet draws them; code and existing emoji are left alone, and the
 * characters stay the element's text (copying still gives them).
 */
export function markTypedEmoji(root: HTMLElement): void {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest('code, pre, .emoji, .katex') ||
      !MAY_HAVE_EMOJI.test(node.nodeValue ?? '')
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  const found: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) found.push(node as Text);
  for (const text of found) {
    const value = text.nodeValue ?? '';
    const parts: (string | HTMLElement)[] = [];
    let last = 0;
    for (const match of value.matchAll(EMOJI_SEQUENCE)) {
      const sequence = match[0];
      // As the server: symbols below U+2000 (©, ®) are text, keycaps the exception.
      if (sequence.codePointAt(0)! < 0x2000 && !sequence.endsWith('\u20E3')) continue;
      const span = root.ownerDocument.createElement('span');
      span.className = `emoji emoji-${emojiCodeOf(sequence)}`;
      span.setAttribute('role', 'img');
      span.setAttribute('aria-label', sequence);
      span.textContent = sequence;
      parts.push(value.slice(last, match.index), span);
      last = match.index + sequence.length;
    }
    if (parts.length === 0) continue;
    parts.push(value.slice(last));
    text.replaceWith(...parts.filter((part) => part !== ''));
  }
}
