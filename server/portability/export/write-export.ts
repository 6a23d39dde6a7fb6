import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HEARTH_VERSION } from '../../core/version.js';
import { type Db, openSqliteFile } from '../../db/open.js';
import { isDjangoValidEmail } from '../email.js';
import type { ExportProfile } from '../profiles/index.js';
import { attachmentMessageIds, writeFiles } from './files.js';
import { ExportIds } from './ids.js';
import { JsonFileWriter, writeJsonFile } from './json-file.js';
import { writeMessageFiles } from './messages.js';
import { type ExportScope, OrganizationTables } from './organization.js';
import { exportReadme } from './readme.js';
import { writeTarball } from './tarball.js';

export interface ExportProgress {
  phase: 'organization' | 'messages' | 'files' | 'checking' | 'packing' | 'done';
  /** 0..1 over the whole export. */
  fraction: number;
  messagesDone?: number;
  messagesTotal?: number;
}

export interface ExportOptions {
  /** The SQLite database file (read through its own connection: a snapshot). */
  databaseFile: string;
  /** The data directory's stored files (uploads, emoji, avatars). */
  filesDir: string;
  /** A folder that does not exist or is empty, or a path ending in `.tar.gz`. */
  out: string;
  profile: ExportProfile;
  now?: () => number;
  onProgress?(progress: ExportProgress): void;
  /** Zulip's export type: everything (default), public, or with consent. */
  scope?: ExportScope;
  /** Checks the written folder against the profile's contract before finishing. */
  verify?: (dir: string) => Promise<string[]>;
}

export interface ExportSummary {
  out: string;
  profile: string;
  counts: Record<string, number>;
  /** Stored files the snapshot named but that were gone (deleted meanwhile). */
  missingFiles: string[];
  droppedSettings: string[];
}

/** An export that cannot be written as asked; nothing was left behind. */
export class ExportRefused extends Error {}

/**
 * Opens a read transaction on its own connection: in WAL mode it sees the
 * database as it was at its first read, however long the export takes,
 * while the server goes on writing through its own connection. Chosen over
 * exporting from a backup copy because it needs no second copy of a large
 * database on disk and no wait for one; the cost is that the WAL cannot be
 * checkpointed past the snapshot until it ends.
 */
export function openSnapshot(databaseFile: string): Db {
  const db = openSqliteFile(databaseFile, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.exec('BEGIN');
  db.prepare('SELECT count(*) FROM realm').get();
  return db;
}

async function refuseNonEmpty(out: string): Promise<void> {
  let entries: string[];
  try {
    const info = await stat(out);
    if (!info.isDirectory()) throw new ExportRefused(`${out} already exists and is not a folder`);
    entries = await readdir(out);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (entries.length > 0) {
    throw new ExportRefused(`${out} is not empty: export into a new or empty folder`);
  }
}

export const isTarballPath = (out: string) => out.toLowerCase().endsWith('.tar.gz');

/** Writes the export; on any failure removes what it wrote and rethrows. */
export async function writeZulipExport(options: ExportOptions): Promise<ExportSummary> {
  const out = path.resolve(options.out);
  const tarball = isTarballPath(out);
  if (tarball) {
    try {
      await stat(out);
      throw new ExportRefused(`${out} already exists`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  } else {
    await refuseNonEmpty(out);
  }
  const existedBefore =
    !tarball &&
    (await stat(out).then(
      () => true,
      () => false,
    ));
  // A tarball is built from a folder beside it, named as its single top directory.
  const workRoot = tarball ? `${out}.partial` : null;
  const dir = tarball ? path.join(workRoot!, path.basename(out).replace(/\.tar\.gz$/i, '')) : out;

  const db = openSnapshot(options.databaseFile);
  try {
    if (workRoot) await rm(workRoot, { recursive: true, force: true });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const summary = await writeFolder(db, dir, options);
    if (tarball) {
      options.onProgress?.({ phase: 'packing', fraction: 0.97 });
      await writeTarball(workRoot!, path.basename(dir), `${out}.partial.tar.gz`);
      await rename(`${out}.partial.tar.gz`, out);
      await rm(workRoot!, { recursive: true, force: true });
    }
    options.onProgress?.({ phase: 'done', fraction: 1 });
    return { ...summary, out };
  } catch (err) {
    if (tarball) {
      await rm(workRoot!, { recursive: true, force: true });
      await rm(`${out}.partial.tar.gz`, { force: true });
    } else if (existedBefore) {
      for (const entry of await readdir(out).catch(() => [] as string[])) {
        await rm(path.join(out, entry), { recursive: true, force: true });
      }
    } else {
      await rm(out, { recursive: true, force: true });
    }
    if (err instanceof ExportRefused) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`the export failed and its partial files were removed: ${reason}`, {
      cause: err,
    });
  } finally {
    db.close();
  }
}

async function writeFolder(
  db: Db,
  dir: string,
  options: ExportOptions,
): Promise<Omit<ExportSummary, 'out'>> {
  const { profile } = options;
  const now = options.now?.() ?? Date.now();
  const progress = (p: ExportProgress) => options.onProgress?.(p);
  progress({ phase: 'organization', fraction: 0 });

  const ids = new ExportIds(db);
  const org = new OrganizationTables(db, profile, ids, now, options.scope ?? 'full');
  org.build();
  refuseInvalidEmails(org);

  const messages = await writeMessageFiles({
    db,
    profile,
    org,
    ids,
    dir,
    attachmentMessageIds: attachmentMessageIds(db),
    onProgress: (done, total) =>
      progress({
        phase: 'messages',
        fraction: 0.05 + 0.8 * (total === 0 ? 1 : done / total),
        messagesDone: done,
        messagesTotal: total,
      }),
  });
  const reactions = await writeRealmJson(db, dir, org, messages.exported);
  progress({ phase: 'files', fraction: 0.87 });
  const files = await writeFiles({
    db,
    org,
    filesDir: options.filesDir,
    dir,
    exported: messages.exported,
  });

  const counts: Record<string, number> = {
    messages: messages.messages,
    message_files: messages.files,
    zerver_usermessage: messages.userMessages,
    zerver_reaction: reactions,
    uploads: files.uploads,
    avatars: files.avatars,
    emoji: files.emoji,
  };
  for (const [table, rows] of Object.entries(org.tables)) counts[table] = rows.length;
  counts.zerver_client = org.clientIds.size;
  const droppedSettings = [...org.droppedSettings].sort();

  await writeJsonFile(path.join(dir, 'stats.json'), counts);
  await writeFile(
    path.join(dir, 'README.md'),
    exportReadme({ profile, counts, missingFiles: files.missing, droppedSettings }),
    { mode: 0o600 },
  );
  if (options.verify) {
    progress({ phase: 'checking', fraction: 0.9 });
    const problems = await options.verify(dir);
    if (problems.length > 0) {
      throw new Error(
        `the written export breaks the ${profile.profile} contract:\n  ${problems.slice(0, 20).join('\n  ')}`,
      );
    }
  }
  const schemaVersion = db.pragma('user_version', { simple: true }) as number;
  await writeJsonFile(path.join(dir, 'hearth_manifest.json'), {
    profile: profile.profile,
    zulip_release_line: profile.zulip_release_line,
    profile_source: profile.source.revision,
    hearth_version: HEARTH_VERSION,
    schema_version: schemaVersion,
    created_at: now / 1000,
    counts,
    missing_files: files.missing,
    dropped_settings: droppedSettings,
    sha256: await checksums(dir),
  });
  return { profile: profile.profile, counts, missingFiles: files.missing, droppedSettings };
}

function refuseInvalidEmails(org: OrganizationTables): void {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const u of org.tables.zerver_userprofile ?? []) {
    for (const key of ['email', 'delivery_email'] as const) {
      const value = String(u[key]);
      if (!isDjangoValidEmail(value)) {
        problems.push(`user ${u.id as number} (${u.full_name as string}): ${key} "${value}"`);
      }
    }
    const lower = String(u.delivery_email).toLowerCase();
    const other = seen.get(lower);
    if (other !== undefined) problems.push(`users ${other} and ${u.id as number} share ${lower}`);
    seen.set(lower, u.id as number);
  }
  if (problems.length > 0) {
    throw new ExportRefused(
      `Zulip refuses these e-mail addresses (Django's validator needs a dotted domain such as example.com); change them in Hearth first:\n  ${problems.join('\n  ')}`,
    );
  }
}

/** realm.json: the organization's tables, then its reactions streamed from the snapshot. */
async function writeRealmJson(
  db: Db,
  dir: string,
  org: OrganizationTables,
  exported: ReadonlySet<number> | null,
): Promise<number> {
  org.closeClients();
  const writer = await JsonFileWriter.create(path.join(dir, 'realm.json'));
  let reactions = 0;
  try {
    await writer.raw('{\n"import_source": "hearth"');
    for (const [table, rows] of Object.entries(org.tables).sort(([a], [b]) => a.localeCompare(b))) {
      await writer.raw(`,\n${JSON.stringify(table)}: `);
      await writer.rows([...rows].sort((a, b) => (a.id as number) - (b.id as number)));
    }
    const emojiNames = new Map(
      (org.tables.zerver_realmemoji ?? []).map((e) => [String(e.id), e.name as string]),
    );
    await writer.raw(',\n"zerver_reaction": [');
    const page = db.prepare(
      `SELECT message_id, user_id, reaction_type, emoji_code, emoji_name FROM reactions
        WHERE message_id > ? AND message_id <= ? ORDER BY message_id, id`,
    );
    const maxId = (
      db.prepare('SELECT coalesce(max(id), 0) AS m FROM messages').get() as { m: number }
    ).m;
    const step = 10_000;
    for (let low = 0; low < maxId; low += step) {
      for (const r of page.all(low, low + step) as {
        message_id: number;
        user_id: number;
        reaction_type: string;
        emoji_code: string;
        emoji_name: string;
      }[]) {
        if (r.user_id === org.notificationBotId) continue;
        if (exported && !exported.has(r.message_id)) continue;
        // Zulip asserts a custom emoji reaction names the emoji it points at.
        const emojiName =
          r.reaction_type === 'realm_emoji'
            ? (emojiNames.get(r.emoji_code) ?? r.emoji_name)
            : r.emoji_name;
        reactions++;
        await writer.raw(
          `${reactions === 1 ? '\n' : ',\n'}${JSON.stringify({
            id: reactions,
            message: r.message_id,
            user_profile: r.user_id,
            emoji_name: emojiName,
            emoji_code: r.emoji_code,
            reaction_type: r.reaction_type,
          })}`,
        );
      }
    }
    await writer.raw(reactions === 0 ? ']\n}\n' : '\n]\n}\n');
  } catch (err) {
    await writer.abandon();
    throw err;
  }
  await writer.close();
  return reactions;
}

async function checksums(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  for (const file of files) {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path.join(dir, file))) hash.update(chunk as Buffer);
    result[file] = hash.digest('hex');
  }
  return result;
}
