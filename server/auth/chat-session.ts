import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../core/context.js';
import { notLoggedIn, realmDeactivated, userDeactivated } from '../core/errors.js';
import { getRealm } from '../db/queries/realm.js';
import { type UserRow, userById } from '../db/queries/users.js';

/*
 * The chat's image credentials. A browser sends no Authorization header for
 * an <img> or a link, so the chat page trades its Basic credentials for a
 * cookie that the /user_uploads routes (and only they) accept. The cookie is
 * `<user id>.<expiry>.<mac>`, the MAC an HMAC with a server secret over the
 * id, the expiry and a digest of the user's current API key: regenerating
 * the key ends every cookie made with the old one, and deactivation is
 * checked on each use, so nothing has to be stored per session.
 */

/** The cookie's name; the door sets and reads it. */
export const CHAT_SESSION_COOKIE = 'hearth_chat_session';
/** How long a cookie lasts; the chat asks for a fresh one each time it loads. */
export const CHAT_SESSION_SECONDS = 30 * 24 * 60 * 60;

/**
 * The secret lives in the data directory, beside (not in) the database and
 * the stored files: backups leave it out, so a restored or moved server
 * makes a new one and old cookies stop working; the chat simply asks for a
 * new cookie when it loads.
 */
const SECRET_FILE = 'chat-session.key';
const SECRET_BYTES = 32;

const secrets = new WeakMap<AppContext, Buffer>();

function sessionSecret(ctx: AppContext): Buffer {
  const known = secrets.get(ctx);
  if (known) return known;
  const file = path.join(ctx.config.dataDir, SECRET_FILE);
  let secret: Buffer | undefined;
  try {
    secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch {
    // Missing: made below.
  }
  if (!secret || secret.length !== SECRET_BYTES) {
    const fresh = randomBytes(SECRET_BYTES);
    try {
      // 'wx': when two runs race to make it, the second reads the first's.
      writeFileSync(file, `${fresh.toString('hex')}\n`, { mode: 0o600, flag: secret ? 'w' : 'wx' });
      secret = fresh;
    } catch {
      secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    }
  }
  secrets.set(ctx, secret);
  return secret;
}

function mac(ctx: AppContext, user: UserRow, expires: number): Buffer {
  const keyDigest = createHash('sha256').update(user.api_key).digest('hex');
  return createHmac('sha256', sessionSecret(ctx))
    .update(`chat-session:${user.id}:${expires}:${keyDigest}`)
    .digest();
}

/** A cookie value for `user`, good for CHAT_SESSION_SECONDS or until their key changes. */
export function startChatSession(
  ctx: AppContext,
  user: UserRow,
): { value: string; maxAgeSeconds: number } {
  const expires = Math.floor(ctx.now() / 1000) + CHAT_SESSION_SECONDS;
  const value = `${user.id}.${expires}.${mac(ctx, user, expires).toString('base64url')}`;
  return { value, maxAgeSeconds: CHAT_SESSION_SECONDS };
}

const SESSION_VALUE = /^(\d{1,10})\.(\d{1,12})\.([\w-]{43})$/;

/**
 * The user a chat-session cookie stands for. An unreadable, expired, forged
 * or outdated cookie is as good as none (not logged in); a genuine one of a
 * deactivated user or organization gets the same answers Basic auth gives.
 * Failures do not count against the address's authentication budget: a page
 * full of images with a stale cookie would otherwise lock its user out.
 */
export function authenticateChatSession(ctx: AppContext, value: string): UserRow {
  const match = SESSION_VALUE.exec(value);
  if (!match) throw notLoggedIn();
  const [, id, expiresText, given] = match;
  const expires = Number(expiresText);
  if (expires * 1000 <= ctx.now()) throw notLoggedIn();
  const user = userById(ctx.db, Number(id));
  if (!user) throw notLoggedIn();
  const expected = mac(ctx, user, expires);
  const actual = Buffer.from(given!, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw notLoggedIn();
  }
  if (getRealm(ctx.db)?.deactivated) throw realmDeactivated();
  if (!user.is_active) throw userDeactivated();
  return user;
}

/** The value of cookie `name` in a Cookie header, if it is there. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    return pair
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}
