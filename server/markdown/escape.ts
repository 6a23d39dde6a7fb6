const FULL_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** For attribute values and code: every markup-significant character, as Python-Markdown writes them (`&#39;`). */
export function escapeMarkup(s: string): string {
  return s.replace(/[&<>"']/g, (c) => FULL_ESCAPES[c]!);
}

/** For attribute values where Zulip does not escape apostrophes. */
export function escapeAttr(s: string): string {
  return s.replace(/[&<>"]/g, (c) => FULL_ESCAPES[c]!);
}

/** Minimal escaping for text nodes: quotes stay literal, as in Zulip's output. */
export function escapeTextStrict(s: string): string {
  return s.replace(/[&<>]/g, (c) => FULL_ESCAPES[c]!);
}

/**
 * Text escaping that keeps well-formed character references: Zulip (via
 * Python-Markdown) renders `&amp;` typed by the user as `&amp;`, not
 * `&amp;amp;`. A reference can only ever decode to text, so keeping it is safe.
 */
export function escapeText(s: string): string {
  if (!/[&<>]/.test(s)) return s;
  return s.replace(
    /&(?:#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[a-zA-Z][a-zA-Z0-9]{1,31};)?|[<>]/g,
    (m) => (m.length > 1 ? m : FULL_ESCAPES[m]!),
  );
}
