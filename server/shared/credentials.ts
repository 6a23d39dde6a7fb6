import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// OWASP's scrypt baseline (N=2^17, r=8, p=1) costs ~130 MB and ~0.3 s here;
// 2^15 keeps logins fast on a 2-core desktop while staying slow for attackers.
const params = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

/**
 * The key derivation every hash and check goes through (an object, so a
 * test can count derivations: logins must cost the same whether or not the
 * account exists).
 */
export const passwordKdf = {
  derive: (password: string, salt: Buffer, keyLength: number, options: ScryptParams) =>
    scryptAsync(password, salt, keyLength, options),
};

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await passwordKdf.derive(password, salt, KEY_LENGTH, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * Stands in for the hash of an account that has none (unknown, a bot, never
 * given a password): checking against it costs what a real check does, and
 * nothing matches it.
 */
const NO_HASH = { salt: Buffer.alloc(16), key: Buffer.alloc(KEY_LENGTH) };

/**
 * Whether `password` matches `stored`. Always derives a key, with the
 * current parameters when there is no usable hash, so the time taken does
 * not tell whether the account exists or has a password.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !saltB64 || !keyB64) {
    await passwordKdf.derive(password, NO_HASH.salt, NO_HASH.key.length, params);
    return false;
  }
  const expected = Buffer.from(keyB64, 'base64');
  const key = await passwordKdf.derive(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: params.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 32 random alphanumeric characters, as Zulip's API keys. */
export function generateApiKey(): string {
  let key = '';
  for (let i = 0; i < 32; i++) key += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return key;
}

/** A readable random password for the first owner, printed once at first start. */
export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}
