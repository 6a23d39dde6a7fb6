import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export const defaultStreamIds = (db: Db) =>
  stmt<[], { stream_id: number }>(db, 'SELECT stream_id FROM default_streams ORDER BY stream_id')
    .all()
    .map((r) => r.stream_id);

export const isDefaultStream = (db: Db, streamId: number) =>
  stmt<[number], { x: number }>(db, 'SELECT 1 AS x FROM default_streams WHERE stream_id = ?').get(
    streamId,
  ) !== undefined;

export const addDefaultStream = (db: Db, streamId: number) =>
  stmt(db, 'INSERT OR IGNORE INTO default_streams (stream_id) VALUES (?)').run(streamId);

export const removeDefaultStream = (db: Db, streamId: number) =>
  stmt(db, 'DELETE FROM default_streams WHERE stream_id = ?').run(streamId);
