import { badRequest } from '../core/errors.js';
import { MAX_MESSAGE_LENGTH } from '../shared/limits.js';

const TRUNCATION_NOTICE = '\n[message truncated]';

/** Zulip's normalize_body: trims, rejects empty or NUL-containing content, truncates long content. */
export function normalizeContent(raw: string): string {
  const body = raw.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (body.length === 0) throw badRequest('Message must not be empty');
  if (body.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  const chars = [...body];
  if (chars.length > MAX_MESSAGE_LENGTH) {
    return (
      chars.slice(0, MAX_MESSAGE_LENGTH - TRUNCATION_NOTICE.length).join('') + TRUNCATION_NOTICE
    );
  }
  return body;
}
