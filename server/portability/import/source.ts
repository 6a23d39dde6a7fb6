import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { extract, list } from 'tar';
import { isSafeRelativePath } from '../export/files.js';
import { messageFileName } from '../export/messages.js';

/** An export Hearth will not read; the message says what is wrong with it. */
export class ImportRefused extends Error {}

type Row = Record<string, unknown>;

/** The lowest and highest Zulip major versions whose exports Hearth reads. */
export const SUPPORTED_ZULIP_MAJORS = { lowest: 10, highest: 12 } as const;

export interface ExportSource {
  /** The folder holding realm.json. */
  dir: string;
  zulipVersion: string | null;
  realm: Record<string, unknown>;
  attachments: Row[];
  records: { uploads: Row[]; avatars: Row[]; emoji: Row[] };
  messageFiles: string[];
  /** Removes what unpacking a tarball created. */
  cleanup(): Promise<void>;
}

async function readJson(file: string, label: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ImportRefused(`the export has no ${label}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ImportRefused(
      `${label} is broken JSON (${(err as Error).message}): the export may be truncated`,
    );
  }
}

/** Unpacks a .tar.gz into a temporary folder, refusing entries that would land outside it. */
async function unpack(file: string): Promise<string> {
  const unsafe: string[] = [];
  try {
    await list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        const name = entry.path.replace(/\/$/, '');
        if (name !== '' && !isSafeRelativePath(name)) unsafe.push(entry.path);
        if (entry.type === 'SymbolicLink' || entry.type === 'Link') unsafe.push(entry.path);
      },
    });
  } catch (err) {
    throw new ImportRefused(
      `${file} is not a readable .tar.gz (${(err as Error).message}): it may be truncated`,
    );
  }
  if (unsafe.length > 0) {
    throw new ImportRefused(
      `the archive holds paths that leave its folder or links: ${unsafe.slice(0, 5).join(', ')}`,
    );
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hearth-import-'));
  try {
    await extract({ file, cwd: dir, strict: true });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw new ImportRefused(`${file} could not be unpacked (${(err as Error).message})`);
  }
  return dir;
}

/** The folder with realm.json: the top itself or its single subfolder (what a tarball holds). */
async function exportRoot(top: string): Promise<string> {
  if (existsSync(path.join(top, 'realm.json'))) return top;
  const entries = (await readdir(top, { withFileTypes: true })).filter(
    (e) => !e.name.startsWith('.'),
  );
  if (entries.length === 1 && entries[0]!.isDirectory()) {
    const inner = path.join(top, entries[0]!.name);
    if (existsSync(path.join(inner, 'realm.json'))) return inner;
  }
  throw new ImportRefused(`not a Zulip export: ${top} has no realm.json`);
}

async function records(dir: string, folder: string, required: boolean): Promise<Row[]> {
  const file = path.join(dir, folder, 'records.json');
  if (!existsSync(file)) {
    if (required) throw new ImportRefused(`the export has no ${folder}/records.json`);
    return [];
  }
  const value = await readJson(file, `${folder}/records.json`);
  if (!Array.isArray(value))
    throw new ImportRefused(`${folder}/records.json is not a list of records`);
  for (const r of value as Row[]) {
    const p = String((r as Row).path ?? '');
    if (!isSafeRelativePath(p)) {
      throw new ImportRefused(`${folder}/records.json names a path that leaves the export: ${p}`);
    }
    if (!existsSync(path.join(dir, folder, ...p.split('/')))) {
      throw new ImportRefused(`${folder}/records.json names ${p}, which is not in the export`);
    }
  }
  return value as Row[];
}

/**
 * Opens an export (folder or .tar.gz) and checks what can be checked
 * before anything is written: that it is a Zulip export at all, of a
 * version Hearth reads, with its required files whole and no path leaving
 * it. Message files are checked as they are read.
 */
export async function openExportSource(input: string): Promise<ExportSource> {
  const resolved = path.resolve(input);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(resolved);
  } catch {
    throw new ImportRefused(`${resolved} does not exist`);
  }
  let unpacked: string | null = null;
  let top: string;
  if (info.isDirectory()) top = resolved;
  else if (/\.(tar\.gz|tgz)$/i.test(resolved)) top = unpacked = await unpack(resolved);
  else throw new ImportRefused(`not a Zulip export: ${resolved} is neither a folder nor a .tar.gz`);
  const cleanup = async () => {
    if (unpacked) await rm(unpacked, { recursive: true, force: true });
  };
  try {
    const dir = await exportRoot(top);
    let zulipVersion: string | null = null;
    if (existsSync(path.join(dir, 'migration_status.json'))) {
      const status = (await readJson(
        path.join(dir, 'migration_status.json'),
        'migration_status.json',
      )) as Row;
      zulipVersion = typeof status?.zulip_version === 'string' ? status.zulip_version : null;
      const major = Number.parseInt(zulipVersion ?? '', 10);
      if (!(major >= SUPPORTED_ZULIP_MAJORS.lowest && major <= SUPPORTED_ZULIP_MAJORS.highest)) {
        throw new ImportRefused(
          `unsupported Zulip version ${zulipVersion ?? '(none given)'}: Hearth reads exports of Zulip ${SUPPORTED_ZULIP_MAJORS.lowest}.x to ${SUPPORTED_ZULIP_MAJORS.highest}.x`,
        );
      }
    } else if (!existsSync(path.join(dir, 'hearth_manifest.json'))) {
      throw new ImportRefused('not a Zulip export: migration_status.json is missing');
    }
    const realm = (await readJson(path.join(dir, 'realm.json'), 'realm.json')) as Row;
    if (realm === null || typeof realm !== 'object' || Array.isArray(realm)) {
      throw new ImportRefused('realm.json is not an export: it holds no tables');
    }
    for (const table of [
      'zerver_realm',
      'zerver_userprofile',
      'zerver_stream',
      'zerver_recipient',
      'zerver_subscription',
    ]) {
      if (!Array.isArray(realm[table]))
        throw new ImportRefused(`realm.json lacks the table ${table}`);
    }
    if ((realm.zerver_realm as Row[]).length !== 1)
      throw new ImportRefused('realm.json must hold exactly one organization');
    const attachmentData = (await readJson(
      path.join(dir, 'attachment.json'),
      'attachment.json',
    )) as Row;
    if (!Array.isArray(attachmentData?.zerver_attachment))
      throw new ImportRefused('attachment.json lacks zerver_attachment');
    const messageFiles: string[] = [];
    for (let n = 1; existsSync(path.join(dir, messageFileName(n))); n++)
      messageFiles.push(path.join(dir, messageFileName(n)));
    const stray = (await readdir(dir)).filter(
      (name) => /^messages-\d{6}\.json$/.test(name) && !messageFiles.includes(path.join(dir, name)),
    );
    if (stray.length > 0)
      throw new ImportRefused(
        `message files are not numbered from 000001 without gaps: ${stray[0]}`,
      );
    return {
      dir,
      zulipVersion,
      realm,
      attachments: attachmentData.zerver_attachment as Row[],
      records: {
        uploads: await records(dir, 'uploads', true),
        avatars: await records(dir, 'avatars', true),
        emoji: await records(dir, 'emoji', false),
      },
      messageFiles,
      cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** One message file's two tables, or a clear refusal naming the file. */
export async function readMessageFile(
  file: string,
): Promise<{ messages: Row[]; userMessages: Row[] }> {
  const label = path.basename(file);
  const data = (await readJson(file, label)) as Row;
  if (!Array.isArray(data?.zerver_message) || !Array.isArray(data?.zerver_usermessage)) {
    throw new ImportRefused(`${label} lacks zerver_message or zerver_usermessage`);
  }
  return { messages: data.zerver_message as Row[], userMessages: data.zerver_usermessage as Row[] };
}
