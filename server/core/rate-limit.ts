import { rateLimited } from './errors.js';

export interface RateRule {
  windowSeconds: number;
  maxRequests: number;
}

/** Zulip's defaults (protocol-defaults.md). */
export const defaultRules = {
  authenticatedUser: [{ windowSeconds: 60, maxRequests: 200 }],
  unauthenticatedIp: [{ windowSeconds: 60, maxRequests: 100 }],
  passwordAttempts: [{ windowSeconds: 30 * 60, maxRequests: 5 }],
  /** Failed authentications (wrong API key, admin token or password) per client address. */
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
 * Sliding-window limiter: each key keeps the timestamps of its recent hits.
 * In memory, like Zulip's in-process backend; limits reset on restart.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
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
    return this.status(key, rules, this.now());
  }

  /** Records a hit, or throws RATE_LIMIT_HIT (with the status for headers) when over a rule. */
  hit(key: string, rules: RateRule[]): RateStatus {
    const now = this.now();
    if (this.enabled) {
      const retryAfter = this.retryAfter(key, rules, now);
      if (retryAfter > 0) {
        const error = rateLimited(retryAfter);
        Object.assign(error.headers, headersFor(this.status(key, rules, now)));
        throw error;
      }
    }
    let list = this.hits.get(key);
    if (!list) {
      list = [];
      this.hits.set(key, list);
    }
    list.push(now);
    const longest = Math.max(...rules.map((r) => r.maxRequests));
    if (list.length > longest) list.splice(0, list.length - longest);
    return this.status(key, rules, now);
  }

  /**
   * One authentication attempt from a client address (HTTP API, tRPC,
   * POST /fetch_api_key). Once the address's failed attempts have used up
   * the budget, every attempt from it is refused with RATE_LIMIT_HIT, right
   * credentials included, until the window has room again; guessing keys or
   * passwords from one address is then no faster than the budget. `attempt`
   * throws (or rejects) to fail; errors for which `isFailure` holds count.
   */
  authenticationAttempt<T>(
    address: string,
    attempt: () => T,
    isFailure: (error: unknown) => boolean,
  ): T {
    if (!this.enabled) return attempt();
    const key = `auth-failures:${address}`;
    const rules = defaultRules.failedAuthentications;
    // hit() on a full window throws without recording anything.
    if (this.peek(key, rules).remaining === 0) this.hit(key, rules);
    const failed = (error: unknown): never => {
      if (isFailure(error)) this.hit(key, rules);
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

  clear(key: string): void {
    this.hits.delete(key);
  }

  close(): void {
    clearInterval(this.sweepTimer);
  }

  private inWindow(key: string, rule: RateRule, now: number): number[] {
    const list = this.hits.get(key) ?? [];
    const start = now - rule.windowSeconds * 1000;
    return list.filter((t) => t > start);
  }

  private retryAfter(key: string, rules: RateRule[], now: number): number {
    let wait = 0;
    for (const rule of rules) {
      const recent = this.inWindow(key, rule, now);
      if (recent.length >= rule.maxRequests) {
        const oldestThatMustExpire = recent[recent.length - rule.maxRequests]!;
        wait = Math.max(wait, (oldestThatMustExpire + rule.windowSeconds * 1000 - now) / 1000);
      }
    }
    return wait;
  }

  private status(key: string, rules: RateRule[], now: number): RateStatus {
    let best: RateStatus | null = null;
    for (const rule of rules) {
      const recent = this.inWindow(key, rule, now);
      const remaining = Math.max(0, rule.maxRequests - recent.length);
      const resetMs = recent.length > 0 ? recent[0]! + rule.windowSeconds * 1000 : now;
      const status = { limit: rule.maxRequests, remaining, reset: Math.ceil(resetMs / 1000) };
      if (!best || status.remaining < best.remaining) best = status;
    }
    return best ?? { limit: 0, remaining: 0, reset: Math.ceil(now / 1000) };
  }

  private sweep(): void {
    const now = this.now();
    const oldest = now - 60 * 60 * 1000;
    for (const [key, list] of this.hits) {
      if (list.length === 0 || list[list.length - 1]! < oldest) this.hits.delete(key);
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
