import { badRequest } from '../core/errors.js';

/** A channel named or numbered, as `to` carries it for channel messages. */
export type ChannelIndicator = { name: string } | { id: number };

/**
 * `to` for channel messages: a bare name, a JSON string or integer, or a
 * one-element JSON list of either (python sends names raw, ids as JSON).
 */
export function parseChannelIndicator(raw: string): ChannelIndicator {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { name: raw };
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badRequest('Expected exactly one channel');
    value = value[0];
  }
  if (typeof value === 'string') return { name: value };
  if (typeof value === 'number' && Number.isSafeInteger(value)) return { id: value };
  throw badRequest('Invalid data type for channel');
}

/** Direct-message recipients: user ids or e-mails, never both. */
export type RecipientList = { ids: number[] } | { emails: string[] };

/**
 * `to` for direct messages: a JSON list of ids or e-mails, a JSON integer or
 * string, or a bare comma-separated list of e-mails (zulip-js, zulip-send).
 */
export function parseRecipientList(raw: string): RecipientList {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw.split(',');
  }
  if (typeof value === 'number' || typeof value === 'string') value = [value];
  if (!Array.isArray(value)) throw badRequest('Invalid data type for recipients');
  if (value.every((v) => typeof v === 'number')) {
    const bad = value.find((v) => !Number.isSafeInteger(v));
    if (bad !== undefined) throw badRequest(`Invalid user ID ${bad}`);
    return { ids: [...new Set(value as number[])] };
  }
  if (value.every((v) => typeof v === 'string')) {
    const emails = (value as string[]).map((e) => e.trim()).filter((e) => e.length > 0);
    return { emails: [...new Set(emails)] };
  }
  if (value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
  }
  throw badRequest('Invalid data type for recipients');
}
