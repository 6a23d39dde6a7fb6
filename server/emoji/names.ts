import { badRequest } from '../core/errors.js';

const VALID_NAME = /^[0-9a-z\-_]+$/;

/**
 * Zulip's check_valid_emoji_name: lower-case letters, digits, dashes and
 * underscores (spaces were turned into underscores before), ending in a
 * letter or digit.
 */
export function checkValidEmojiName(name: string): void {
  if (name === '') throw badRequest('Emoji name is missing');
  if (!VALID_NAME.test(name)) {
    throw badRequest(
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    );
  }
  if (/[-_]$/.test(name)) throw badRequest('Emoji names must end with either a letter or digit.');
}

/** What the upload endpoint does to the name in the URL before checking it (Python's strip). */
export const normalizeEmojiName = (raw: string) => raw.trim().replace(/ /g, '_');
