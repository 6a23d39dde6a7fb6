import { badRequest } from '../core/errors.js';

/** A channel named or numbered, as `to` carries it for channel messages. */
export type ChannelIndicator = { name: string } | { id: number };

/** Direct-message recipients: user ids or e-mails, never both. */
export type RecipientList = { ids: number[] } | { emails: string[] };

/**
 * Where a message goes, once `to` is read: a channel (absent when `to` was
 * not sent) and topic (absent when not sent), or direct recipients (possibly
 * none). What is missing is refused later, in Zulip's order (see recipients.ts).
 */
export type MessageTarget =
  | { type: 'stream'; channel: ChannelIndicator | undefined; topic: string | undefined }
  | { type: 'private'; recipients: RecipientList };

/**
 * JSON as Zulip's orjson reads it, except that a number written with a
 * fraction or an exponent is NaN: Python keeps 1.0 a float, never an int.
 */
export function parseJsonExactIntegers(raw: string): unknown {
  return JSON.parse(raw, (_key, value, context?: { source?: string }) =>
    typeof value === 'number' && !/^-?\d+$/.test(context?.source ?? String(value))
      ? Number.NaN
      : value,
  );
}

/** Zulip's extract_stream_indicator: a bare name, a JSON string or integer, or a one-element JSON list of either. */
export function parseChannelIndicator(raw: string): ChannelIndicator {
  let value: unknown;
  try {
    value = parseJsonExactIntegers(raw);
  } catch {
    return { name: raw };
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badRequest('Expected exactly one channel');
    value = value[0];
  }
  if (typeof value === 'string') return { name: value };
  if (Number.isSafeInteger(value)) return { id: value as number };
  throw badRequest('Invalid data type for channel');
}

/**
 * Zulip's extract_private_recipients: a JSON list of ids or of e-mails, a
 * JSON string, or bare comma-separated e-mails (zulip-js, zulip-send). The
 * first element decides which; a bare integer is not a list.
 */
export function parsePrivateRecipients(raw: string): RecipientList {
  let value: unknown;
  try {
    value = parseJsonExactIntegers(raw);
  } catch {
    value = raw;
  }
  if (typeof value === 'string') value = value.split(',');
  if (!Array.isArray(value)) throw badRequest('Invalid data type for recipients');
  if (value.length === 0) return { ids: [] };
  const mixed = () => badRequest('Recipient lists may contain emails or user IDs, but not both.');
  if (typeof value[0] === 'string') {
    if (value.some((v) => typeof v !== 'string')) throw mixed();
    const emails = (value as string[]).map((e) => e.trim()).filter((e) => e.length > 0);
    return { emails: [...new Set(emails)] };
  }
  if (!Number.isSafeInteger(value[0])) throw badRequest('Invalid data type for recipients');
  if (value.some((v) => !Number.isSafeInteger(v))) throw mixed();
  return { ids: [...new Set(value as number[])] };
}

/**
 * `to` of typing notifications: like a message's recipients, and also a
 * bare integer (one recipient), which older clients send.
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
