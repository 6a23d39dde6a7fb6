import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface ChannelFolderRow {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  sort_order: number;
  creator_id: number | null;
  /** Seconds since the epoch. */
  date_created: number;
  is_archived: number;
}

/** Every folder in its order (archived ones too). */
export const allChannelFolders = (db: Db) =>
  stmt<[], ChannelFolderRow>(db, 'SELECT * FROM channel_folders ORDER BY sort_order, id').all();

export const channelFolderById = (db: Db, id: number) =>
  stmt<[number], ChannelFolderRow>(db, 'SELECT * FROM channel_folders WHERE id = ?').get(id);

/** Whether an active folder has this name, ignoring case. */
export const activeChannelFolderNamed = (db: Db, name: string) =>
  stmt<[string], { x: number }>(
    db,
    'SELECT 1 AS x FROM channel_folders WHERE lower(name) = lower(?) AND is_archived = 0',
  ).get(name) !== undefined;

/** A new folder; like Zulip, it is ordered by its own id until reordered. */
export function insertChannelFolder(
  db: Db,
  row: Pick<
    ChannelFolderRow,
    'name' | 'description' | 'rendered_description' | 'creator_id' | 'date_created'
  >,
): number {
  const id = Number(
    stmt(
      db,
      `INSERT INTO channel_folders (name, description, rendered_description, sort_order, creator_id, date_created)
       VALUES (?, ?, ?, 0, ?, ?)`,
    ).run(row.name, row.description, row.rendered_description, row.creator_id, row.date_created)
      .lastInsertRowid,
  );
  stmt(db, 'UPDATE channel_folders SET sort_order = id WHERE id = ?').run(id);
  return id;
}

export const setChannelFolderName = (db: Db, id: number, name: string) =>
  stmt(db, 'UPDATE channel_folders SET name = ? WHERE id = ?').run(name, id);

export const setChannelFolderDescription = (
  db: Db,
  id: number,
  description: string,
  rendered: string,
) =>
  stmt(db, 'UPDATE channel_folders SET description = ?, rendered_description = ? WHERE id = ?').run(
    description,
    rendered,
    id,
  );

export const setChannelFolderArchived = (db: Db, id: number, archived: boolean) =>
  stmt(db, 'UPDATE channel_folders SET is_archived = ? WHERE id = ?').run(archived ? 1 : 0, id);

export const setChannelFolderOrder = (db: Db, id: number, order: number) =>
  stmt(db, 'UPDATE channel_folders SET sort_order = ? WHERE id = ?').run(order, id);

/** Whether any channel (archived ones too) is in the folder. */
export const channelFolderInUse = (db: Db, id: number) =>
  stmt<[number], { x: number }>(db, 'SELECT 1 AS x FROM streams WHERE folder_id = ? LIMIT 1').get(
    id,
  ) !== undefined;

export const setStreamFolder = (db: Db, streamId: number, folderId: number | null) =>
  stmt(db, 'UPDATE streams SET folder_id = ? WHERE id = ?').run(folderId, streamId);
