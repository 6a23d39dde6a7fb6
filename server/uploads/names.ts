import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * Names of uploads. The client's file name is only ever data: it becomes the
 * last part of the path id (sanitized like Zulip's sanitize_name) and the name
 * GET /attachments shows, never a file-system path.
 */

const MAX_NAME_LENGTH = 200;
const FALLBACK_NAME = 'uploaded-file';

/** The name the user gave, without any directory part or control characters. */
export function displayName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '' ? FALLBACK_NAME : [...clean].slice(0, 255).join('');
}

/** Letters, digits, `_`, `.` and `-` only; runs of spaces and dashes become one dash. */
export function sanitizeName(raw: string): string {
  const value = raw
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-');
  if (value === '' || value === '.' || value === '..') return FALLBACK_NAME;
  const chars = [...value];
  if (chars.length <= MAX_NAME_LENGTH) return value;
  // Keep a short extension: it is what tells people (and the preview) what the file is.
  const ext = /\.[\p{L}\p{N}]{1,10}$/u.exec(value)?.[0] ?? '';
  return chars.slice(0, MAX_NAME_LENGTH - ext.length).join('') + ext;
}

/** A fresh path id: "{realm_id}/{2 hex}/{24 random}/{name}", as Zulip makes them. */
export function newPathId(realmId: number, fileName: string): string {
  const shard = randomBytes(1).toString('hex');
  const token = randomBytes(18).toString('base64url');
  return `${realmId}/${shard}/${token}/${sanitizeName(fileName)}`;
}

/**
 * Plain text is served inline, so it gets a charset when it has one: without
 * it a browser guesses the encoding (Zulip's maybe_add_charset).
 */
export async function withCharset(contentType: string, file: string): Promise<string> {
  if (contentType !== 'text/plain') return contentType;
  // Read in pieces: a text file may be as large as any upload.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(file)) {
      decoder.decode(chunk as Buffer, { stream: true });
    }
    decoder.decode();
    return 'text/plain; charset=utf-8';
  } catch (error) {
    if (error instanceof TypeError) return contentType;
    throw error;
  }
}

/** The type without parameters ("text/plain; charset=utf-8" -> "text/plain"). */
export const baseType = (contentType: string) => contentType.split(';')[0]!.trim();
