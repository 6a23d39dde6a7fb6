import type { Db } from '../../server/db/open.js';
import { stmt } from '../../server/db/prepared.js';
import { type NarrowQuery, windowSql } from '../../server/db/queries/message-search.js';

/**
 * Runs `read` and counts the stretches a newest-first search window took:
 * stmt() prepares each SQL once per connection, so wrapping the stretch's
 * statement sees every call.
 */
export function countStretches<T>(
  db: Db,
  q: NarrowQuery,
  read: () => T,
): { result: T; stretches: number } {
  const stretch = stmt(db, windowSql.stretch(q, 'DESC'));
  const all = stretch.all.bind(stretch);
  let stretches = 0;
  stretch.all = ((...args: Parameters<typeof all>) => {
    stretches++;
    return all(...args);
  }) as typeof stretch.all;
  try {
    return { result: read(), stretches };
  } finally {
    stretch.all = all;
  }
}
