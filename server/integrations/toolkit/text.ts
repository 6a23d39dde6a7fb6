/** Small pieces of Hearth's wording shared by the integrations. */
import { plainText, quoteBlock } from '../../markdown/index.js';

/** A person or thing named in bold, whatever characters the name holds. */
export const strong = (name: string) => `**${plainText(name)}**`;

/** "1 commit", "3 commits". */
export const count = (n: number, noun: string, plural = `${noun}s`) =>
  `${n} ${n === 1 ? noun : plural}`;

const EXCERPT_CHARS = 600;
const EXCERPT_LINES = 12;

/**
 * The start of a description or comment, for a quote: HTML comments (issue
 * templates' hints) removed, cut at a line or two of screen with "…". The
 * message links to the whole text.
 */
export function excerpt(text: string | null | undefined): string {
  if (!text) return '';
  let body = text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const lines = body.split('\n');
  if (lines.length > EXCERPT_LINES)
    body = `${lines.slice(0, EXCERPT_LINES).join('\n').trimEnd()}\n…`;
  const chars = [...body];
  if (chars.length > EXCERPT_CHARS) body = `${chars.slice(0, EXCERPT_CHARS).join('').trimEnd()}…`;
  return body;
}

/** `line`, and below it the quoted excerpt of `text` when there is one. */
export function withQuote(line: string, text: string | null | undefined): string {
  const quoted = excerpt(text);
  return quoted ? `${line}\n${quoteBlock(quoted)}` : line;
}

/** The first line of a commit message. */
export const firstLine = (message: string) => message.trim().split(/\r?\n/, 1)[0] ?? '';

/** "2m 5s", "45s", "1h 3m" from seconds. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/**
 * A moment from a tool (ISO 8601) as Zulip's `<time:…>`, which each reader
 * sees in their own time zone; Unix seconds, whatever precision the tool
 * wrote. Text that is not a date stays as written.
 */
export function moment(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? plainText(iso) : `<time:${Math.floor(ms / 1000)}>`;
}
