import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { avatarFileKey, resizeAvatar } from '../../avatars/index.js';
import { newFileKey } from '../../core/file-store.js';
import type { Db } from '../../db/open.js';
import { emojiContentType, emojiFormatFor, resizeEmoji } from '../../emoji/index.js';
import { emojiFileKey, stillFileKey } from '../../shared/emoji-urls.js';
import { makeThumbnails } from '../../uploads/index.js';
import type { OrganizationImport } from './organization.js';
import type { ExportSource } from './source.js';

type Row = Record<string, unknown>;

/** Writes one file under a file-store key in the staged files folder (core/file-store.ts's layout). */
async function store(filesDir: string, key: string, data: Buffer): Promise<void> {
  const target = path.join(filesDir, ...key.split('/'));
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  await writeFile(`${target}.partial`, data, { mode: 0o600 });
  await rename(`${target}.partial`, target);
}

export interface ImportedFiles {
  uploads: number;
  avatars: number;
  emoji: number;
  warnings: string[];
}

/**
 * Uploads keep their Zulip path_id (the links in messages name it; Hearth
 * looks uploads up by the whole path), their bytes go under a new file-store
 * key. Avatars and custom emoji are resized as when uploaded to Hearth.
 */
export async function importFiles(options: {
  db: Db;
  source: ExportSource;
  org: OrganizationImport;
  messageIds: ReadonlySet<number>;
  filesDir: string;
}): Promise<ImportedFiles> {
  const { db, source, org, filesDir } = options;
  const warnings: string[] = [];
  const recordByPath = new Map(source.records.uploads.map((r) => [String(r.s3_path), r]));
  const attachment = db.prepare(
    `INSERT INTO attachments (id, owner_id, path_id, file_name, size, create_time_ms, storage_key, content_type,
       image_width, image_height, image_frames, thumbnails)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Images get the thumbnails Hearth makes at upload: Zulip's rendered messages
  // show them through /user_uploads/thumbnail/... URLs.
  const thumbnailHost = { config: { filesDir }, log: { info() {}, warn() {}, error() {} } };
  const link = db.prepare(
    'INSERT OR IGNORE INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)',
  );
  let uploads = 0;
  for (const a of source.attachments) {
    const record = recordByPath.get(String(a.path_id));
    if (!record) {
      warnings.push(`upload ${String(a.path_id)} has no file in the export`);
      continue;
    }
    const owner = a.owner as number;
    if (!org.userIds.has(owner)) continue;
    const data = await readFile(
      path.join(source.dir, 'uploads', ...String(record.path).split('/')),
    );
    const key = newFileKey('uploads');
    await store(filesDir, key, data);
    const contentType = String(a.content_type ?? record.content_type ?? 'application/octet-stream');
    const image = await makeThumbnails(thumbnailHost, data, contentType.split(';')[0]!.trim());
    attachment.run(
      a.id,
      owner,
      String(a.path_id),
      String(a.file_name ?? path.basename(String(a.path_id))),
      data.length,
      Math.round(((a.create_time as number) ?? 0) * 1000),
      key,
      contentType,
      image?.width ?? null,
      image?.height ?? null,
      image?.frames ?? null,
      JSON.stringify(image?.thumbnails ?? []),
    );
    for (const messageId of (a.messages as number[]) ?? []) {
      if (options.messageIds.has(messageId)) link.run(a.id, messageId);
    }
    uploads++;
  }

  // Avatars: per user, the .original if there is one, else the image.
  const avatarOf = new Map<number, Row>();
  for (const r of source.records.avatars) {
    const user = r.user_profile_id as number;
    const current = avatarOf.get(user);
    if (!current || String(r.path).endsWith('.original')) avatarOf.set(user, r);
  }
  const avatarUser = db.prepare(
    "UPDATE users SET avatar_source = 'U', avatar_version = ? WHERE id = ?",
  );
  const noAvatar = db.prepare("UPDATE users SET avatar_source = 'G' WHERE id = ?");
  let avatars = 0;
  for (const id of org.userIds) {
    const r = avatarOf.get(id);
    if (!r) {
      noAvatar.run(id);
      continue;
    }
    try {
      const data = await readFile(path.join(source.dir, 'avatars', ...String(r.path).split('/')));
      const images = await resizeAvatar(data, String(r.content_type ?? 'image/png'));
      const version = (r.avatar_version as number) ?? 1;
      await store(filesDir, avatarFileKey(id, version, false), images.small);
      await store(filesDir, avatarFileKey(id, version, true), images.medium);
      avatarUser.run(version, id);
      avatars++;
    } catch {
      noAvatar.run(id);
      warnings.push(`the avatar of user ${id} is not an image Hearth can read`);
    }
  }

  // Custom emoji: the image named in realm.json, its .original when there is one.
  const emojiFiles = new Map<string, Row>();
  for (const r of source.records.emoji) {
    const name = String(r.file_name);
    if (!emojiFiles.has(name) || String(r.path).endsWith('.original')) emojiFiles.set(name, r);
  }
  const insertEmoji = db.prepare(
    'INSERT INTO realm_emoji (id, name, author_id, file_name, is_animated, deactivated) VALUES (?, ?, ?, ?, ?, ?)',
  );
  let emoji = 0;
  for (const e of org.table('zerver_realmemoji')) {
    const record = emojiFiles.get(String(e.file_name));
    const author = org.userIds.has(e.author as number) ? (e.author as number) : null;
    let fileName = String(e.file_name);
    let animated = false;
    if (record) {
      try {
        const data = await readFile(
          path.join(source.dir, 'emoji', ...String(record.path).split('/')),
        );
        const type = emojiContentType(fileName);
        const { extension } = emojiFormatFor(type);
        const resized = await resizeEmoji(data, type);
        fileName = `${e.id as number}.${extension}`;
        await store(filesDir, emojiFileKey(fileName), resized.image);
        if (resized.still) await store(filesDir, stillFileKey(fileName), resized.still);
        animated = resized.still !== null;
        emoji++;
      } catch {
        warnings.push(`custom emoji ${String(e.name)} is not an image Hearth can read`);
      }
    } else {
      warnings.push(`custom emoji ${String(e.name)} has no file in the export`);
    }
    insertEmoji.run(
      e.id,
      String(e.name),
      author,
      fileName,
      animated ? 1 : 0,
      e.deactivated ? 1 : 0,
    );
  }
  return { uploads, avatars, emoji, warnings };
}

/** Reactions, kept in Zulip's order (Hearth's `id` column). */
export function importReactions(
  db: Db,
  org: OrganizationImport,
  messageIds: ReadonlySet<number>,
): number {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO reactions (message_id, user_id, reaction_type, emoji_code, emoji_name, id)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  let n = 0;
  for (const r of org.table('zerver_reaction')) {
    if (!messageIds.has(r.message as number) || !org.userIds.has(r.user_profile as number))
      continue;
    insert.run(
      r.message,
      r.user_profile,
      String(r.reaction_type),
      String(r.emoji_code),
      String(r.emoji_name),
      r.id,
    );
    n++;
  }
  return n;
}
