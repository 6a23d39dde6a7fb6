/** A webhook request's body as the JSON payload the tool meant. */
import { missingArgument } from '../../core/errors.js';
import { jsonTooDeep } from '../../shared/json-depth.js';
import { malformedJson } from './errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The media type alone, lower-cased: "application/json; charset=utf-8" → "application/json". */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The payload of a webhook body. Tools send JSON, whatever type they
 * declare (Zulip reads the body as JSON regardless); Slack and its
 * imitators, and Gitea's form mode, send a form whose `payload` field holds
 * the JSON. Anything else, or JSON nested deeper than any tool's, is
 * "Malformed JSON".
 */
export function decodePayload(body: Buffer | null, contentType: string | undefined): unknown {
  if (!body || body.length === 0) throw malformedJson();
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw malformedJson();
  }
  if (mediaType(contentType) === 'application/x-www-form-urlencoded') {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) throw missingArgument('payload');
    text = payload;
  }
  if (jsonTooDeep(text)) throw malformedJson();
  try {
    return JSON.parse(text);
  } catch {
    throw malformedJson();
  }
}
