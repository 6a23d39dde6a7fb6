import { emojiSourceUrl, emojiStillUrl } from '../../shared/emoji-urls.js';
import { previewOf } from '../../shared/uploads.js';
import type { Db } from '../open.js';
import { stmt } from '../prepared.js';
import { tableMemo } from '../table-memo.js';

/**
 * The organization's linkifiers in order. Every formatted message reads them
 * for its topic_links, so a page of 100 messages ran the query 100 times.
 */
const linkifierList = tableMemo(['realm_linkifiers'], ({ db }: { db: Db }) =>
  Object.freeze(
    stmt<[], { id: number; pattern: string; url_template: string }>(
      db,
      'SELECT id, pattern, url_template FROM realm_linkifiers ORDER BY sort_order, id',
    )
      .all()
      .map((row) =>
        Object.freeze({ id: row.id, pattern: row.pattern, urlTemplate: row.url_template }),
      ),
  ),
);

/**
 * The renderer's view of the organization, backed by prepared statements;
 * shaped to markdown/'s MarkdownLookups, which the caller checks.
 */
export function markdownLookups(db: Db) {
  return {
    userById(id: number) {
      const row = stmt<[number], { id: number; full_name: string; is_active: number }>(
        db,
        'SELECT id, full_name, is_active FROM users WHERE id = ?',
      ).get(id);
      return row
        ? { id: row.id, fullName: row.full_name, isActive: row.is_active === 1 }
        : undefined;
    },
    usersByName(fullName: string) {
      return stmt<[string], { id: number; full_name: string; is_active: number }>(
        db,
        'SELECT id, full_name, is_active FROM users WHERE full_name = ? COLLATE NOCASE ORDER BY id',
      )
        .all(fullName)
        .map((row) => ({ id: row.id, fullName: row.full_name, isActive: row.is_active === 1 }));
    },
    groupByName(name: string) {
      const row = stmt<[string], { id: number; name: string }>(
        db,
        'SELECT id, name FROM user_groups WHERE name = ? COLLATE NOCASE AND deactivated = 0',
      ).get(name);
      return row ? { id: row.id, name: row.name } : undefined;
    },
    channelByName(name: string) {
      const row = stmt<[string], { id: number; name: string }>(
        db,
        'SELECT id, name FROM streams WHERE name_key = ?',
      ).get(name.toLowerCase());
      return row ?? undefined;
    },
    channelById(id: number) {
      const row = stmt<[number], { id: number; name: string }>(
        db,
        'SELECT id, name FROM streams WHERE id = ?',
      ).get(id);
      return row ?? undefined;
    },
    realmEmoji(name: string) {
      const row = stmt<
        [string],
        { id: number; name: string; file_name: string; is_animated: number; deactivated: number }
      >(
        db,
        "SELECT id, name, file_name, is_animated, deactivated FROM realm_emoji WHERE name = ? AND file_name != '' ORDER BY deactivated, id DESC",
      ).get(name);
      if (!row) return undefined;
      // Hearth hosts one organization, whose id is always 1.
      return {
        id: String(row.id),
        name: row.name,
        sourceUrl: emojiSourceUrl(1, row.file_name),
        stillUrl: row.is_animated ? emojiStillUrl(1, row.file_name) : null,
        deactivated: row.deactivated === 1,
      };
    },
    linkifiers() {
      // A copy: the caller's list is its own, the memo's stays as read.
      return [...linkifierList({ db })];
    },
    uploadPreview(pathId: string) {
      const row = stmt<
        [string],
        {
          content_type: string;
          image_width: number;
          image_height: number;
          image_frames: number;
          thumbnails: string;
        }
      >(
        db,
        `SELECT content_type, image_width, image_height, image_frames, thumbnails FROM attachments
         WHERE path_id = ? AND image_width IS NOT NULL`,
      ).get(pathId);
      if (!row) return undefined;
      const thumbnails = JSON.parse(row.thumbnails) as Array<{ name: string }>;
      return previewOf({
        pathId,
        contentType: row.content_type,
        width: row.image_width,
        height: row.image_height,
        frames: row.image_frames,
        thumbnailNames: thumbnails.map((t) => t.name),
      });
    },
  };
}
