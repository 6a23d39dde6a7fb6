import type { Db } from './open.js';
import { stmt } from './prepared.js';

/** One name for every level: RELEASE and ROLLBACK TO act on the innermost savepoint of that name. */
const SAVEPOINT = '"hearth savepoint"';

/**
 * Runs `fn` in a transaction, or in a savepoint inside one already open:
 * what better-sqlite3's `db.transaction(fn)()` does, with the statements
 * prepared once per connection. `db.transaction` builds four wrapper
 * functions per call, and a send opens three transactions (the group
 * commit, its write, the send itself). If `fn` throws, its writes are
 * rolled back and the error rethrown; a commit that fails rolls back too.
 */
export function withTransaction<T>(db: Db, fn: () => T): T {
  const nested = db.inTransaction;
  stmt(db, nested ? `SAVEPOINT ${SAVEPOINT}` : 'BEGIN').run();
  try {
    const result = fn();
    if (isThenable(result)) throw new TypeError('Transaction function cannot return a promise');
    stmt(db, nested ? `RELEASE ${SAVEPOINT}` : 'COMMIT').run();
    return result;
  } catch (error) {
    if (db.inTransaction) {
      if (nested) {
        stmt(db, `ROLLBACK TO ${SAVEPOINT}`).run();
        stmt(db, `RELEASE ${SAVEPOINT}`).run();
      } else {
        stmt(db, 'ROLLBACK').run();
      }
    }
    throw error;
  }
}

/** Is `value` a promise (or promise-like)? Writes in a transaction must not be. */
export const isThenable = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';
