import { type ApiError, rateLimited } from './errors.js';

export interface RateRule {
  windowSeconds: number;
  maxRequests: number;
}

/** Zulip's defaults (protocol-defaults.md), and Hearth's budgets of failed authentications. */
export const defaultRules = {
  authenticatedUser: [{ windowSeconds: 60, maxRequests: 200 }],
  unauthenticatedIp: [{ windowSeconds: 60, maxRequests: 100 }],
  /**
   * Zulip's `authenticate_by_username` rule (5 per 30 minutes), counted per
   * client address and username: failed passwords for a username from one
   * address lock that username from that address only.
   */
  passwordAttempts: [{ windowSeconds: 30 * 60, maxRequests: 5 }],
  /**
   * Failed passwords for one username from every address together (guessing
   * spread over many addresses). Past it, only addresses the account has
   * authenticated from lately may still try.
   */
  passwordFailuresPerAccount: [{ windowSeconds: 30 * 60, maxRequests: 25 }],
  /**
   * Wrong API keys, admin tokens and JWTs, and unreadable credentials, per
   * client address and the account they name. Past it those wrong ones are
   * answered 429 instead of 401; a right credential always passes.
   */
  failedAuthentications: [{ windowSeconds: 10 * 60, maxRequests: 50 }],
} satisfies Record<string, RateRule[]>;

export type RateRules = typeof defaultRules;

export interface RateStatus {
  limit: number;
  remaining: number;
  /** UNIX seconds at which the strictest window has room again. */
  reset: number;
}

/**
 * Timestamps of recent hits per key, for sliding windows. `maxKeys` bounds
 * a store whose keys a client chooses (the account a wrong credential
 * names): past it the oldest key is forgotten.
 */
class SlidingWindows {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly maxKeys = Number.POSITIVE_INFINITY) {}

  record(key: string, rules: RateRule[], now: number): void {
    let list = this.hits.get(key);
    if (!list) {
      if (this.hits.size >= this.maxKeys) {
        this.hits.delete(this.hits.keys().next().value!);
      }
      list = [];
      this.hits.set(key, list);
    }
    // Kept in order even if the clock steps back, so windows are found by bisection.
    list.push(list.length > 0 ? Math.max(now, list[list.length - 1]!) : now);
    // Only the newest `longest` hits count (inWindow); older ones go in bulk, not one per hit.
    const longest = longestRule(rules);
    if (list.length >= 2 * longest) list.splice(0, list.length - longest);
  }

  /** The RATE_LIMIT_HIT error (with the status for headers) when a rule is full, else null. */
  refusal(key: string, rules: RateRule[], now: number): ApiError | null {
    const retryAfter = this.retryAfter(key, rules, now);
    if (retryAfter <= 0) return null;
    const error = rateLimited(retryAfter);
    Object.assign(error.headers, headersFor(this.status(key, rules, now)));
    return error;
  }

  clear(key: string): void {
    this.hits.delete(key);
  }

  status(key: string, rules: RateRule[], now: number): RateStatus {
    let best: RateStatus | null = null;
    const list = this.hits.get(key) ?? NO_HITS;
    for (const rule of rules) {
      const first = this.inWindow(list, rules, rule, now);
      const count = list.length - first;
      const remaining = Math.max(0, rule.maxRequests - count);
      const resetMs = count > 0 ? list[first]! + rule.windowSeconds * 1000 : now;
      const status = { limit: rule.maxRequests, remaining, reset: Math.ceil(resetMs / 1000) };
      if (!best || status.remaining < best.remaining) best = status;
    }
    return best ?? { limit: 0, remaining: 0, reset: Math.ceil(now / 1000) };
  }

  /** Forgets keys without a hit since `oldest`. */
  sweep(oldest: number): void {
    for (const [key, list] of this.hits) {
      if (list.length === 0 || list[list.length - 1]! < oldest) this.hits.delete(key);
    }
  }

  /**
   * Where `rule`'s window starts in `list`: the hits from there on are in it,
   * of the newest `longest` (what record() keeps at the least).
   */
  private inWindow(list: number[], rules: RateRule[], rule: RateRule, now: number): number {
    const start = now - rule.windowSeconds * 1000;
    // The first hit after `start`, by bisection (the list is in order).
    let low = Math.max(0, list.length - longestRule(rules));
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (list[mid]! > start) high = mid;
      else low = mid + 1;
    }
    return low;
  }

  private retryAfter(key: string, rules: RateRule[], now: number): number {
    let wait = 0;
    const list = this.hits.get(key) ?? NO_HITS;
    for (const rule of rules) {
      const count = list.length - this.inWindow(list, rules, rule, now);
      if (count >= rule.maxRequests) {
        const oldestThatMustExpire = list[list.length - rule.maxRequests]!;
        wait = Math.max(wait, (oldestThatMustExpire + rule.windowSeconds * 1000 - now) / 1000);
      }
    }
    return wait;
  }
}

const NO_HITS: number[] = [];

function longestRule(rules: RateRule[]): number {
  let longest = 0;
  for (const rule of rules) if (rule.maxRequests > longest) longest = rule.maxRequests;
  return longest;
}

/** How long an address stays known for an account after it last authenticated as it. */
const TRUSTED_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;
/** Addresses remembered per account (the oldest is forgotten first). */
const MAX_TRUSTED_ADDRESSES = 64;
/**
 * Address-and-account pairs whose wrong credentials are counted. Each is
 * only a 401 turned into a 429, so forgetting the oldest under a flood of
 * made-up accounts costs nothing but memory saved.
 */
const MAX_CREDENTIAL_FAILURE_KEYS = 20_000;

/**
 * Sliding-window limiter (in memory, like Zulip's in-process backend; limits
 * reset on restart): requests per user and per address, and the budgets of
 * failed authentications.
 *
 * Failed authentications never refuse a right credential because of someone
 * else's failures. Keys, tokens and signed JWTs cannot be guessed, so a
 * right one always passes (`checkCredential`); passwords can, so a username
 * is locked from the one address that keeps failing for it, and when it fails
 * from many addresses at once, from every address it has not authenticated
 * from lately (`checkPassword`).
 */
export class RateLimiter {
  private readonly windows = new SlidingWindows();
  private readonly credentialFailures = new SlidingWindows(MAX_CREDENTIAL_FAILURE_KEYS);
  /** Account (its e-mail key) to the addresses it authenticated from, with when it last did. */
  private readonly trusted = new Map<string, Map<string, number>>();
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(
    private readonly now: () => number,
    readonly enabled: boolean,
  ) {
    this.sweepTimer = setInterval(() => this.sweep(), 60_000);
    this.sweepTimer.unref();
  }

  /** Status without recording a hit. */
  peek(key: string, rules: RateRule[]): RateStatus {
    return this.windows.status(key, rules, this.now());
  }

  /** Records a hit, or throws RATE_LIMIT_HIT (with the status for headers) when over a rule. */
  hit(key: string, rules: RateRule[]): RateStatus {
    const now = this.now();
    if (this.enabled) {
      const refusal = this.windows.refusal(key, rules, now);
      if (refusal) throw refusal;
    }
    this.windows.record(key, rules, now);
    return this.windows.status(key, rules, now);
  }

  /**
   * Checks a credential nobody can guess (an API key, the admin token, a
   * signed JWT) that a request from `address` presents; `account` tells the
   * account it names, as given ('' when it names none), and is asked only
   * when the credential failed. `attempt` throws (or
   * rejects) to fail; errors for which `isFailure` holds count against the
   * address and account. Once they fill the budget, such failures answer
   * RATE_LIMIT_HIT, telling a client stuck on a stale key to back off; a
   * right credential is never refused, whatever failed before.
   */
  checkCredential<T>(
    address: string,
    account: () => string,
    attempt: () => T,
    isFailure: (error: unknown) => boolean,
  ): T {
    if (!this.enabled) return attempt();
    const failed = (error: unknown): never => {
      if (isFailure(error)) {
        const key = `${address}|${account()}`;
        const rules = defaultRules.failedAuthentications;
        const now = this.now();
        const refusal = this.credentialFailures.refusal(key, rules, now);
        if (refusal) throw refusal;
        this.credentialFailures.record(key, rules, now);
      }
      throw error;
    };
    let result: T;
    try {
      result = attempt();
    } catch (error) {
      return failed(error);
    }
    return result instanceof Promise ? (result.catch(failed) as T) : result;
  }

  /**
   * Checks a password for `username` (normalized: trimmed, lower case) from
   * `address`. Refused with RATE_LIMIT_HIT before it is checked (answering a
   * right guess differently would defeat the lock) when that address has
   * failed for the username 5 times in 30 minutes, or when the username has
   * failed 25 times from all addresses and this one has not authenticated as
   * the account lately. A success clears the address's failures for the
   * username (as Zulip clears the username's) and makes the address known.
   */
  async checkPassword<T>(
    address: string,
    username: string,
    attempt: () => Promise<T>,
    isFailure: (error: unknown) => boolean,
  ): Promise<T> {
    if (!this.enabled) return attempt();
    const pairKey = `password:${address}|${username}`;
    const accountKey = `password-account:${username}`;
    const now = this.now();
    const refusal =
      this.windows.refusal(pairKey, defaultRules.passwordAttempts, now) ??
      (this.isTrusted(address, username)
        ? null
        : this.windows.refusal(accountKey, defaultRules.passwordFailuresPerAccount, now));
    if (refusal) throw refusal;
    try {
      const result = await attempt();
      this.windows.clear(pairKey);
      this.noteAuthenticated(address, username);
      return result;
    } catch (error) {
      if (isFailure(error)) {
        const at = this.now();
        this.windows.record(pairKey, defaultRules.passwordAttempts, at);
        this.windows.record(accountKey, defaultRules.passwordFailuresPerAccount, at);
      }
      throw error;
    }
  }

  /** `address` authenticated as `account` (its e-mail key): its passwords are not held up by others' failures. */
  noteAuthenticated(address: string, account: string): void {
    if (!this.enabled) return;
    const now = this.now();
    let addresses = this.trusted.get(account);
    if (!addresses) {
      addresses = new Map();
      this.trusted.set(account, addresses);
    }
    const last = addresses.get(address);
    // Most requests repeat a known pair: only a minute's change is written.
    if (last !== undefined && now - last < 60_000) return;
    addresses.delete(address);
    if (addresses.size >= MAX_TRUSTED_ADDRESSES) addresses.delete(addresses.keys().next().value!);
    addresses.set(address, now);
  }

  clear(key: string): void {
    this.windows.clear(key);
  }

  close(): void {
    clearInterval(this.sweepTimer);
  }

  private isTrusted(address: string, account: string): boolean {
    const last = this.trusted.get(account)?.get(address);
    return last !== undefined && this.now() - last < TRUSTED_ADDRESS_MS;
  }

  private sweep(): void {
    const now = this.now();
    // Longer than any window.
    const oldest = now - 60 * 60 * 1000;
    this.windows.sweep(oldest);
    this.credentialFailures.sweep(oldest);
    for (const [account, addresses] of this.trusted) {
      for (const [address, last] of addresses) {
        if (now - last >= TRUSTED_ADDRESS_MS) addresses.delete(address);
      }
      if (addresses.size === 0) this.trusted.delete(account);
    }
  }
}

export function headersFor(status: RateStatus): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(status.limit),
    'X-RateLimit-Remaining': String(status.remaining),
    'X-RateLimit-Reset': String(status.reset),
  };
}
