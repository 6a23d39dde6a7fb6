import type { Db } from '../db/open.js';
import { noteRollback } from '../db/write-versions.js';
import type { EventHub, PendingEvent } from '../events/hub.js';
import type { RateLimiter } from './rate-limit.js';

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string, err?: unknown): void;
  /** Writes buffered lines out (file loggers), so a reader of the file sees them. */
  flush?(): Promise<void>;
}

export interface ServerConfig {
  /** The URL clients use, e.g. http://127.0.0.1:9991 (known after listen). */
  externalUrl: string;
  demo: boolean;
  rateLimit: boolean;
  /** Where stored files live (uploads, emoji, avatars): `<data dir>/files`. */
  filesDir: string;
  /** The data directory (database, zuliprc, files, logs, desktop settings). */
  dataDir: string;
  /** The address listened on, as given (e.g. 127.0.0.1, 0.0.0.0). */
  host: string;
  /** The port listened on (known after listen). */
  port: number;
  /**
   * Reverse proxies whose `X-Forwarded-For` names the client (addresses,
   * CIDR ranges; `--trusted-proxy`); empty: the header is ignored.
   */
  trustedProxies: readonly string[];
  /** The external URL given by the operator (undefined: derived from host and port). */
  givenExternalUrl?: string;
  /** This run's log file (`<data dir>/logs/hearth.log`), or null when logging to a file is off. */
  logFile: string | null;
  /** Distinguishes server runs (register's server_generation). */
  startedAtMs: number;
  /** POST /streams/{id}/delete_topic: messages per transaction, and the time one request may take. */
  topicDeletion: { batchSize: number; timeBudgetMs: number };
}

/**
 * Everything a domain operation needs, passed explicitly (no singletons), so
 * tests and several servers in one process stay independent.
 */
export interface AppContext {
  db: Db;
  events: EventHub;
  /** Milliseconds since the epoch; replaceable in tests. */
  now(): number;
  log: Logger;
  config: ServerConfig;
  rateLimiter: RateLimiter;
  /**
   * Runs `fn` in one SQLite transaction and delivers the events it emitted
   * only after the commit; a rollback drops them. Nested calls join the
   * outer transaction and its event buffer.
   */
  transaction<T>(fn: (tx: Tx) => T): T;
  /**
   * Runs a synchronous write operation as part of the next group commit
   * (write-batcher.ts); concurrent sends share one transaction.
   */
  batch<T>(fn: () => T): Promise<T>;
}

export interface Tx {
  emit(event: PendingEvent): void;
}

export function createTransactionRunner(
  db: Db,
  events: EventHub,
  log: Logger,
): AppContext['transaction'] {
  let buffer: PendingEvent[] | null = null;
  return <T>(fn: (tx: Tx) => T): T => {
    if (buffer !== null) {
      // A savepoint: its events join the outer buffer only if it succeeds.
      const outer = buffer;
      const inner: PendingEvent[] = [];
      let result: T;
      try {
        result = db.transaction(() => fn({ emit: (e) => inner.push(e) }))();
      } catch (error) {
        noteRollback(db);
        throw error;
      }
      outer.push(...inner);
      return result;
    }
    const mine: PendingEvent[] = [];
    buffer = mine;
    let result: T;
    try {
      result = db.transaction(() => fn({ emit: (e) => mine.push(e) }))();
    } catch (error) {
      noteRollback(db);
      throw error;
    } finally {
      buffer = null;
    }
    for (const event of mine) {
      try {
        events.dispatch(event);
      } catch (err) {
        // The write is committed; a broken event must not turn it into an error.
        log.error(`failed to deliver ${event.type} event`, err);
      }
    }
    return result;
  };
}
