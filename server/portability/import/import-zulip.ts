import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Db, openDatabase, openSqliteFile } from '../../db/open.js';
import { hashPassword } from '../../shared/credentials.js';
import type { ExportProfile } from '../profiles/index.js';
import { importFiles, importReactions } from './files.js';
import { MessageImport } from './messages.js';
import { OrganizationImport } from './organization.js';
import { ImportRefused, openExportSource } from './source.js';

export interface ImportOptions {
  dataDir: string;
  /** The database's file name inside the data directory. */
  databaseName: string;
  /** The stored files' folder name inside the data directory. */
  filesName: string;
  /** A Zulip export: its folder or its .tar.gz. */
  source: string;
  profile: ExportProfile;
  now?: () => number;
  onProgress?(message: string): void;
}

export interface ImportSummary {
  zulipVersion: string | null;
  /** The first active human owner: the account to give a password first. */
  ownerEmail: string | null;
  counts: Record<string, number>;
  warnings: string[];
}

/** Refuses a data directory that already holds an organization (or stored files). */
function refuseNonEmptyTarget(dbFile: string, filesDir: string): void {
  if (existsSync(dbFile)) {
    const db = openSqliteFile(dbFile, { readonly: true, fileMustExist: true });
    try {
      const hasRealm = db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'realm'")
        .get();
      if (hasRealm && db.prepare('SELECT 1 FROM realm').get()) {
        throw new ImportRefused(
          `${path.dirname(dbFile)} already has an organization: import only into an empty data directory`,
        );
      }
    } finally {
      db.close();
    }
  }
  if (existsSync(filesDir) && readdirSync(filesDir).length > 0) {
    throw new ImportRefused(
      `${filesDir} already holds stored files: import only into an empty data directory`,
    );
  }
}

export interface PreparedImport {
  /** The built database (journal mode DELETE: a single file) and stored files. */
  databaseFile: string;
  filesDir: string;
  summary: ImportSummary;
  /** Removes the staging folder (after the files were moved out, or on failure). */
  cleanup(): Promise<void>;
}

export interface PrepareOptions {
  /** The data directory the import is for; the staging folder is made inside it. */
  dataDir: string;
  databaseName: string;
  filesName: string;
  source: string;
  profile: ExportProfile;
  now?: () => number;
  onProgress?(message: string): void;
  /** A password for the owner account (the desktop wizard asks for one). */
  ownerPassword?: string;
}

/**
 * Builds the Hearth database and stored files of a Zulip export in a
 * staging folder inside the data directory, touching nothing else there.
 * The caller moves them into place (the command line) or swaps them in at a
 * restart (the desktop's first-run wizard, through backup/).
 */
export async function prepareZulipImport(options: PrepareOptions): Promise<PreparedImport> {
  const dataDir = path.resolve(options.dataDir);
  const now = options.now?.() ?? Date.now();
  const say = (m: string) => options.onProgress?.(m);
  const source = await openExportSource(options.source);
  const createdDataDir = !existsSync(dataDir);
  let staging: string | null = null;
  let db: Db | null = null;
  const removeStaging = async () => {
    if (staging) await rm(staging, { recursive: true, force: true });
    if (createdDataDir) {
      const left = await readdir(dataDir).catch(() => [] as string[]);
      if (left.length === 0) await rm(dataDir, { recursive: true, force: true });
    }
  };
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    staging = await mkdtemp(path.join(dataDir, '.hearth-import-'));
    const stagedDb = path.join(staging, options.databaseName);
    const stagedFiles = path.join(staging, options.filesName);
    await mkdir(stagedFiles, { mode: 0o700 });
    db = openDatabase(stagedDb);
    db.exec('BEGIN');
    db.pragma('defer_foreign_keys = ON');

    say('Reading the organization: users, channels, groups, settings');
    const org = new OrganizationImport(db, source.realm, options.profile, now);
    org.run();
    const messages = new MessageImport(db, options.profile, org);
    say(`Reading ${source.messageFiles.length} message files`);
    await messages.firstPass(source.messageFiles, (n) => say(`  ${n} messages`));
    messages.writeMemberships();
    say('Folding read state, stars and mentions into watermarks');
    await messages.secondPass(source.messageFiles);
    const reactions = importReactions(db, org, messages.messageIds);
    say('Copying uploads, avatars and custom emoji');
    const files = await importFiles({
      db,
      source,
      org,
      messageIds: messages.messageIds,
      filesDir: stagedFiles,
    });
    org.insertScheduledMessages();
    if (options.ownerPassword !== undefined && org.ownerEmail !== null) {
      const hash = await hashPassword(options.ownerPassword);
      db.prepare('UPDATE users SET password_hash = ? WHERE email_key = ?').run(
        hash,
        org.ownerEmail.toLowerCase(),
      );
    }

    const broken = db.pragma('foreign_key_check') as {
      table: string;
      rowid: number;
      parent: string;
    }[];
    if (broken.length > 0) {
      const first = broken[0]!;
      throw new ImportRefused(
        `the export's rows do not fit together: ${broken.length} rows point at missing rows (first: ${first.table} row ${first.rowid} -> ${first.parent})`,
      );
    }
    db.exec('COMMIT');
    db.pragma('journal_mode = DELETE');
    db.close();
    db = null;
    return {
      databaseFile: stagedDb,
      filesDir: stagedFiles,
      summary: {
        zulipVersion: source.zulipVersion,
        ownerEmail: org.ownerEmail,
        counts: {
          users: org.userIds.size,
          channels: org.table('zerver_stream').length,
          messages: messages.messages,
          flag_rows: messages.flagRows,
          reactions,
          uploads: files.uploads,
          avatars: files.avatars,
          emoji: files.emoji,
        },
        warnings: files.warnings,
      },
      cleanup: removeStaging,
    };
  } catch (err) {
    if (db) {
      try {
        if (db.inTransaction) db.exec('ROLLBACK');
      } catch {
        // The connection is closed next either way.
      }
      db.close();
    }
    await removeStaging();
    if (err instanceof ImportRefused) throw err;
    throw new ImportRefused(
      `the import failed and the data directory was left as it was: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    await source.cleanup();
  }
}

/**
 * Reads a Zulip export into an empty data directory (the command line),
 * keeping Zulip's ids. Everything is built in a staging folder and moved
 * into place only once the whole import has succeeded, so a refused or
 * broken export leaves the directory as it was.
 */
export async function importZulipExport(options: ImportOptions): Promise<ImportSummary> {
  const dataDir = path.resolve(options.dataDir);
  const dbFile = path.join(dataDir, options.databaseName);
  const filesDir = path.join(dataDir, options.filesName);
  refuseNonEmptyTarget(dbFile, filesDir);
  const prepared = await prepareZulipImport({ ...options, dataDir });
  try {
    // Into place: the (empty) database a first start may have left goes first.
    for (const suffix of ['', '-wal', '-shm']) await rm(`${dbFile}${suffix}`, { force: true });
    if (existsSync(filesDir)) await rm(filesDir, { recursive: true, force: true });
    await rename(prepared.filesDir, filesDir);
    await rename(prepared.databaseFile, dbFile);
  } finally {
    await prepared.cleanup();
  }
  return prepared.summary;
}
