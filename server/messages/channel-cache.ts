import type { Db } from '../db/open.js';
import { channelNameKey, type StreamRow, streamById, streamByName } from '../db/queries/streams.js';
import { tableMemo } from '../db/table-memo.js';

/**
 * Channel rows as sends find them, by id and by name, kept until the
 * streams table is written (db/table-memo.ts; a rollback counts as a
 * write). Every channel send resolves its channel, and under load that one
 * lookup cost about as much as storing the message's flags. Rows are frozen:
 * every send shares them.
 */
const channelRows = tableMemo(['streams'], (_: { db: Db }) => ({
  byId: new Map<number, Readonly<StreamRow> | null>(),
  byName: new Map<string, Readonly<StreamRow> | null>(),
}));

export function channelById(db: Db, id: number): Readonly<StreamRow> | undefined {
  const { byId } = channelRows({ db });
  let row = byId.get(id);
  if (row === undefined) {
    row = Object.freeze(streamById(db, id)) ?? null;
    byId.set(id, row);
  }
  return row ?? undefined;
}

/** By name, compared as Zulip does (case-insensitively). */
export function channelByName(db: Db, name: string): Readonly<StreamRow> | undefined {
  const { byName } = channelRows({ db });
  const key = channelNameKey(name);
  let row = byName.get(key);
  if (row === undefined) {
    row = Object.freeze(streamByName(db, name)) ?? null;
    byName.set(key, row);
  }
  return row ?? undefined;
}
