/**
 * Python's html.escape(quote=True), which Zulip uses for text it puts into
 * HTML or error messages outside Markdown (search highlights, channel names
 * in errors, KaTeX error spans). The Markdown renderer has its own escaping
 * (markdown/escape.ts) because Python-Markdown writes `&#39;`.
 */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
