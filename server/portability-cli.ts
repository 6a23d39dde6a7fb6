/**
 * The command-line doors of moving an organization (cli.ts parses the
 * flags): --export-zulip OUT, --import-zulip PATH and --set-password EMAIL.
 * Each does its one job on the data directory and returns; the server is
 * not left listening.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { openDatabase } from './db/open.js';
import { createServer, DATABASE_FILE, FILES_DIR, silentLogger } from './index.js';
import {
  checkExportContract,
  DEFAULT_PROFILE,
  importZulipExport,
  profileNamed,
  settleOnZulip,
  writeZulipExport,
} from './portability/index.js';
import { primaryOwner } from './realm/index.js';
import { accessUserByEmail, setUserPassword } from './users/index.js';

export type PortabilityCommand =
  | { kind: 'export-zulip'; out: string }
  | { kind: 'import-zulip'; source: string }
  | { kind: 'set-password'; email: string }
  | { kind: 'settle-zulip'; url: string };

export async function runPortabilityCommand(
  command: PortabilityCommand,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  switch (command.kind) {
    case 'export-zulip':
      return exportCommand(dataDir, command.out);
    case 'import-zulip':
      return importCommand(dataDir, command.source);
    case 'set-password':
      return setPasswordCommand(dataDir, command.email, env);
    case 'settle-zulip':
      return settleCommand(dataDir, command.url, env);
  }
}

async function exportCommand(dataDir: string, out: string): Promise<void> {
  const databaseFile = path.join(dataDir, DATABASE_FILE);
  if (!existsSync(databaseFile))
    throw new Error(`${dataDir} holds no Hearth organization to export`);
  // Bring an older database's schema up to date first, as a start would.
  openDatabase(databaseFile).close();
  const profile = profileNamed(DEFAULT_PROFILE);
  let shown = -1;
  const summary = await writeZulipExport({
    databaseFile,
    filesDir: path.join(dataDir, FILES_DIR),
    out: path.resolve(out),
    profile,
    verify: (dir) => checkExportContract(dir, profile, { writtenByHearth: true }),
    onProgress: (p) => {
      const percent = Math.floor(p.fraction * 100);
      if (percent >= shown + 5 || p.phase === 'done') {
        shown = percent;
        const detail =
          p.messagesTotal !== undefined ? ` (${p.messagesDone}/${p.messagesTotal} messages)` : '';
        console.error(`Exporting: ${percent}% ${p.phase}${detail}`);
      }
    },
  });
  console.log(`Wrote the Zulip ${profile.zulip_release_line} export to ${summary.out}`);
  console.log(
    `  ${summary.counts.zerver_userprofile ?? 0} users, ${summary.counts.zerver_stream ?? 0} channels, ${summary.counts.messages ?? 0} messages, ${summary.counts.uploads ?? 0} uploads`,
  );
  if (summary.missingFiles.length > 0) {
    console.log(
      `  ${summary.missingFiles.length} stored files were gone and are left out (listed in its README.md)`,
    );
  }
  console.log(
    '  What did not travel is listed in its README.md; the steps on Zulip are in docs/moving-to-zulip.md.',
  );
}

async function importCommand(dataDir: string, source: string): Promise<void> {
  const summary = await importZulipExport({
    dataDir,
    databaseName: DATABASE_FILE,
    filesName: FILES_DIR,
    source: path.resolve(source),
    profile: profileNamed(DEFAULT_PROFILE),
    onProgress: (message) => console.error(message),
  });
  const c = summary.counts;
  console.log(
    `Imported ${c.users} users, ${c.channels} channels and ${c.messages} messages from Zulip ${summary.zulipVersion ?? '(a Hearth export)'} into ${dataDir}.`,
  );
  for (const warning of summary.warnings) console.log(`  note: ${warning}`);
  console.log("Nobody has a password yet: Zulip's password hashes cannot be carried over.");
  if (summary.ownerEmail) {
    console.log(`Owner account: ${summary.ownerEmail}. Give it a password with`);
    console.log(
      `  HEARTH_PASSWORD='...' npm start -- --data-dir ${dataDir} --set-password ${summary.ownerEmail}`,
    );
  }
  console.log(
    'Then start Hearth; set other people\'s passwords from the admin UI (People, "Set password"), with --set-password, or send them invitation links.',
  );
}

/** A password typed on the terminal without echo. */
async function askPassword(prompt: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    return await new Promise<string>((resolve) => {
      rl.question(prompt, (answer) => {
        process.stdout.write('\n');
        resolve(answer);
      });
      muted = true;
    });
  } finally {
    rl.close();
  }
}

async function setPasswordCommand(
  dataDir: string,
  email: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  if (!existsSync(path.join(dataDir, DATABASE_FILE)))
    throw new Error(`${dataDir} holds no Hearth organization`);
  let password = env.HEARTH_PASSWORD;
  if (password === undefined) {
    if (!process.stdin.isTTY) {
      throw new Error(
        'give the new password in the HEARTH_PASSWORD variable, or run on a terminal to type it',
      );
    }
    password = await askPassword(`New password for ${email}: `);
    const again = await askPassword('Again: ');
    if (again !== password) throw new Error('the two passwords differ; nothing was changed');
  }
  const server = await createServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    log: silentLogger,
    logFile: false,
    scheduledDelivery: false,
    automaticBackups: false,
    unclaimedUploadCleanup: false,
  });
  try {
    const owner = primaryOwner(server.ctx);
    const target = accessUserByEmail(server.ctx, owner, email);
    await setUserPassword(server.ctx, owner, target.id, password);
    console.log(`Set the password of ${target.delivery_email}.`);
  } finally {
    await server.close();
  }
}

async function settleCommand(dataDir: string, url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const databaseFile = path.join(dataDir, DATABASE_FILE);
  if (!existsSync(databaseFile)) throw new Error(`${dataDir} holds no Hearth organization`);
  const email = env.ZULIP_EMAIL;
  const apiKey = env.ZULIP_API_KEY;
  if (!email || !apiKey) {
    throw new Error(
      "give an owner's account on the Zulip server in ZULIP_EMAIL and ZULIP_API_KEY (its API key: Personal settings, Account & privacy)",
    );
  }
  const report = await settleOnZulip({ databaseFile, zulipUrl: url, email, apiKey });
  console.log(`Set the organization's name on ${url} again: ${report.restored.name}`);
  if (report.botsToReconfigure.length > 0) {
    console.log('Zulip gave these bots new API keys; their owners must update what uses them:');
    for (const bot of report.botsToReconfigure) {
      console.log(
        `  ${bot.name} <${bot.email}>${bot.outgoingWebhook ? ' (outgoing webhook: its token changed too)' : ''}`,
      );
    }
  }
}
