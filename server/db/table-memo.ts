import type { Db } from './open.js';
import { tableVersion, type VersionedTable } from './write-versions.js';

/**
 * `build` memoised per database connection until any of `tables` is written
 * (db/write-versions.ts counts every row written, by any query module). A
 * value built inside a transaction is kept too: a rollback counts every
 * table as written (noteRollback), so rows it undoes cannot outlive it.
 * Nothing is kept where writes are not tracked.
 */
export function tableMemo<C extends { db: Db }, T>(
  tables: readonly VersionedTable[],
  build: (ctx: C) => T,
): (ctx: C) => T {
  const memo = new WeakMap<Db, { versions: number[]; value: T }>();
  return (ctx) => {
    const versions = tables.map((table) => tableVersion(ctx.db, table));
    const hit = memo.get(ctx.db);
    if (hit?.versions.every((v, i) => v === versions[i])) return hit.value;
    const value = build(ctx);
    memo.set(ctx.db, { versions, value });
    return value;
  };
}
