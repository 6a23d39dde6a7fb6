import type { Db } from '../db/open.js';
import { withTransaction } from '../db/transaction.js';
import { noteRollback } from '../db/write-versions.js';
import type { ApiEvent, EventHub, PendingEvent } from '../events/hub.js';
import type { HttpsScope } from '../shared/network.js';
import type { DurableCommits, SyncStats } from './durable-commits.js';
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
  /** Where the server speaks TLS (shared/network.ts); the URLs above follow it. */
  https: HttpsScope;
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
  /** What group commit did since the start: how the durable-send bench explains its figures. */
  groupCommitStats(): GroupCommitStats;
  /**
   * The database's PRAGMA synchronous (durable-commits.ts): FULL, as the
   * server runs, or NORMAL, the benches' reference that does not wait for
   * the disk.
   */
  setSynchronous(level: 'NORMAL' | 'FULL'): void;
}

export interface GroupCommitStats extends SyncStats {
  batches: number;
  writes: number;
}

export interface Tx {
  /** An event of Zulip's API: the payload must be one of the description's events. */
  emit(event: PendingEvent<ApiEvent>): void;
}

/** The transaction runner behind AppContext.transaction, and what group commit builds on. */
export interface TransactionRunner {
  transaction: AppContext['transaction'];
  /**
   * An outer transaction whose events come back undelivered: group commit
   * delivers them once the commit is on disk (write-batcher.ts).
   */
  collect<T>(fn: () => T): { result: T; events: PendingEvent[] };
  /** Delivers events of a committed transaction, each failure logged, never thrown. */
  deliver(events: PendingEvent[]): void;
}

export function createTransactionRunner(
  db: Db,
  events: EventHub,
  log: Logger,
  durable: DurableCommits,
): TransactionRunner {
  let buffer: PendingEvent[] | null = null;
  const outer = <T>(fn: (tx: Tx) => T, commit: (run: () => T) => T) => {
    const mine: PendingEvent[] = [];
    buffer = mine;
    try {
      const result = commit(() => withTransaction(db, () => fn({ emit: (e) => mine.push(e) })));
      return { result, events: mine };
    } catch (error) {
      noteRollback(db);
      throw error;
    } finally {
      buffer = null;
    }
  };
  const deliver = (committed: PendingEvent[]) => {
    for (const event of committed) {
      try {
        events.dispatch(event);
      } catch (err) {
        // The write is committed; a broken event must not turn it into an error.
        log.error(`failed to deliver ${event.type} event`, err);
      }
    }
  };
  const transaction = <T>(fn: (tx: Tx) => T): T => {
    if (buffer !== null) {
      // A savepoint: its events join the outer buffer only if it succeeds.
      const enclosing = buffer;
      const inner: PendingEvent[] = [];
      let result: T;
      try {
        result = withTransaction(db, () => fn({ emit: (e) => inner.push(e) }));
      } catch (error) {
        noteRollback(db);
        throw error;
      }
      enclosing.push(...inner);
      return result;
    }
    // SQLite's fsync at COMMIT makes it durable before its events go out.
    const { result, events: committed } = outer(fn, (run) => durable.commitSynced(run));
    deliver(committed);
    return result;
  };
  return {
    transaction,
    collect: (fn) =>
      outer(
        () => fn(),
        (run) => run(),
      ),
    deliver,
  };
}
