import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { writeJsonFile } from './json-file.js';
import type { OrganizationTables } from './organization.js';

/** A relative path of plain segments: nothing in an export may point outside it. */
export function isSafeRelativePath(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** Where a file-store key lives (core/file-store.ts keeps them under <data>/files). */
const storedPath = (filesDir: string, key: string) => path.join(filesDir, ...key.split('/'));

async function copyInto(source: string, root: string, relative: string): Promise<boolean> {
  if (!isSafeRelativePath(relative)) throw new Error(`unsafe file path in the export: ${relative}`);
  const target = path.join(root, ...relative.split('/'));
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await copyFile(source, target);
    return true;
  } catch (err) {
    // A file the server removed after the snapshot was taken: leave it out.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

interface AttachmentRow {
  id: number;
  owner_id: number;
  path_id: string;
  file_name: string;
  size: number;
  create_time_ms: number;
  storage_key: string;
  content_type: string;
}

/** Ids of messages that link an upload (their `has_attachment` must be true). */
export function attachmentMessageIds(db: Database.Database): Set<number> {
  return new Set(
    (
      db
        .prepare(
          'SELECT DISTINCT a.message_id FROM attachment_messages a JOIN messages m ON m.id = a.message_id',
        )
        .all() as { message_id: number }[]
    ).map((r) => r.message_id),
  );
}

export interface FileCounts {
  uploads: number;
  avatars: number;
  emoji: number;
  missing: string[];
}

/**
 * attachment.json and the four file trees with their records.json, in the
 * shapes import_uploads reads: uploads by their path_id (the importer makes
 * new paths and rewrites the links), avatars as `<id>/<version>` with an
 * `.original` next to each (process_avatars thumbnails from it), emoji at
 * Zulip's `<realm>/emoji/images/<file_name>`.
 */
export async function writeFiles(options: {
  db: Database.Database;
  org: OrganizationTables;
  filesDir: string;
  dir: string;
  /** The messages a public or consent export holds (null: all). */
  exported: ReadonlySet<number> | null;
}): Promise<FileCounts> {
  const { db, org, filesDir, dir, exported } = options;
  const missing: string[] = [];
  const bot = org.notificationBotId;

  const links = new Map<number, number[]>();
  for (const r of db
    .prepare(
      `SELECT a.attachment_id, a.message_id FROM attachment_messages a
         JOIN messages m ON m.id = a.message_id ORDER BY a.attachment_id, a.message_id`,
    )
    .all() as { attachment_id: number; message_id: number }[]) {
    const list = links.get(r.attachment_id) ?? [];
    if (exported && !exported.has(r.message_id)) continue;
    list.push(r.message_id);
    links.set(r.attachment_id, list);
  }

  const attachments: Record<string, unknown>[] = [];
  const uploadRecords: Record<string, unknown>[] = [];
  await mkdir(path.join(dir, 'uploads'));
  for (const a of db.prepare('SELECT * FROM attachments ORDER BY id').all() as AttachmentRow[]) {
    // A public or consent export carries only the uploads its messages link.
    if (exported && !links.has(a.id)) continue;
    if (!isSafeRelativePath(a.path_id)) {
      missing.push(`upload ${a.path_id} (not a plain path)`);
      continue;
    }
    const copied =
      a.storage_key !== '' &&
      (await copyInto(storedPath(filesDir, a.storage_key), path.join(dir, 'uploads'), a.path_id));
    if (!copied) {
      missing.push(`upload ${a.path_id}`);
      continue;
    }
    const owner = a.owner_id === bot ? null : a.owner_id;
    if (owner === null) {
      missing.push(`upload ${a.path_id} (owned by the Notification Bot)`);
      continue;
    }
    attachments.push({
      id: a.id,
      path_id: a.path_id,
      file_name: a.file_name,
      size: a.size,
      create_time: a.create_time_ms / 1000,
      owner,
      realm: 1,
      messages: links.get(a.id) ?? [],
      scheduled_messages: [],
      content_type: a.content_type,
    });
    uploadRecords.push({
      s3_path: a.path_id,
      path: a.path_id,
      realm_id: 1,
      user_profile_id: owner,
      content_type: a.content_type,
      size: a.size,
      last_modified: a.create_time_ms / 1000,
    });
  }
  await writeJsonFile(path.join(dir, 'attachment.json'), { zerver_attachment: attachments });
  await writeJsonFile(path.join(dir, 'uploads', 'records.json'), sortByPath(uploadRecords));

  const avatarRecords: Record<string, unknown>[] = [];
  await mkdir(path.join(dir, 'avatars'));
  for (const u of org.realmUsers) {
    if (u.avatar_source !== 'U') continue;
    const source = storedPath(filesDir, `avatars/${u.id}-${u.avatar_version}.png`);
    for (const name of [
      `${u.id}/${u.avatar_version}.png`,
      `${u.id}/${u.avatar_version}.original`,
    ]) {
      if (!(await copyInto(source, path.join(dir, 'avatars'), name))) {
        missing.push(`avatar of user ${u.id}`);
        break;
      }
      avatarRecords.push({
        path: name,
        s3_path: name,
        realm_id: 1,
        user_profile_id: u.id,
        avatar_version: u.avatar_version,
        content_type: 'image/png',
      });
    }
  }
  await writeJsonFile(path.join(dir, 'avatars', 'records.json'), sortByPath(avatarRecords));

  const emojiRecords: Record<string, unknown>[] = [];
  await mkdir(path.join(dir, 'emoji'));
  for (const e of org.tables.zerver_realmemoji ?? []) {
    const fileName = e.file_name as string;
    const name = `1/emoji/images/${fileName}`;
    if (
      !(await copyInto(storedPath(filesDir, `emoji/${fileName}`), path.join(dir, 'emoji'), name))
    ) {
      missing.push(`custom emoji ${e.name as string}`);
      continue;
    }
    emojiRecords.push({
      path: name,
      s3_path: name,
      file_name: fileName,
      realm_id: 1,
      author: e.author,
      deactivated: e.deactivated,
      name: e.name,
    });
  }
  await writeJsonFile(path.join(dir, 'emoji', 'records.json'), sortByPath(emojiRecords));

  // Hearth's organization icon is its built-in flame: nothing uploaded to carry.
  await mkdir(path.join(dir, 'realm_icons'));
  await writeJsonFile(path.join(dir, 'realm_icons', 'records.json'), []);

  return {
    uploads: uploadRecords.length,
    avatars: avatarRecords.length,
    emoji: emojiRecords.length,
    missing,
  };
}

/** Zulip sorts records by path so two exports of the same data are identical (write_records_json_file). */
const sortByPath = (records: Record<string, unknown>[]) =>
  records.sort((a, b) => String(a.path).localeCompare(String(b.path)));
