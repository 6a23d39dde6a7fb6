import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** A new avatar source with the next version, so every avatar URL changes (Zulip's do_change_avatar_fields). */
export const setAvatarSource = (db: Db, userId: number, source: 'G' | 'U') =>
  stmt(
    db,
    'UPDATE users SET avatar_source = ?, avatar_version = avatar_version + 1 WHERE id = ?',
  ).run(source, userId);
