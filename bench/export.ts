/**
 * `--export-zulip` on a large organization: 1,000,000 channel messages
 * (100,000 with --quick) exported to Zulip 12's format, with their
 * UserMessage rows expanded from Hearth's subscription periods. Figures:
 * messages per second (ceiling: reading every message row in the same
 * batches and writing it as JSON, no expansion), and how far the resident
 * set grows during the export, which must not follow the message count
 * (the writer streams one batch at a time).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE, FILES_DIR } from '../server/index.js';
import { profileNamed, writeZulipExport } from '../server/portability/index.js';
import { cachedDataDir } from './lib/cache.js';
import { buildOrg } from './lib/org.js';
import { quick, record } from './lib/report.js';

const shape = {
  users: 100,
  channels: 50,
  subscriptionsPerUser: 4,
  messages: quick ? 100_000 : 1_000_000,
};
const { dataDir, cleanup } = await cachedDataDir(`export-${shape.messages}m`, (dir) =>
  buildOrg(dir, shape),
);
const work = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-export-'));
const databaseFile = path.join(dataDir, DATABASE_FILE);

/** The bare reference: every message row read in the export's batches and written as JSON. */
async function bareRead(): Promise<number> {
  const db = new Database(databaseFile, { readonly: true });
  const page = db.prepare('SELECT * FROM messages WHERE id > ? ORDER BY id LIMIT 1000');
  const file = await open(path.join(work, 'bare.json'), 'w');
  const start = performance.now();
  let after = 0;
  let n = 0;
  for (;;) {
    const rows = page.all(after) as { id: number }[];
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    n += rows.length;
    await file.write(`${rows.map((r) => JSON.stringify(r)).join(',\n')}\n`);
  }
  const seconds = (performance.now() - start) / 1000;
  await file.close();
  db.close();
  return n / seconds;
}

try {
  const ceiling = await bareRead();
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const start = performance.now();
  const summary = await writeZulipExport({
    databaseFile,
    filesDir: path.join(dataDir, FILES_DIR),
    out: path.join(work, 'export'),
    profile: profileNamed('zulip-12'),
    onProgress: (p) => {
      if (p.messagesDone !== undefined && p.messagesDone % 100_000 === 0) {
        process.stderr.write(`\r  exported ${p.messagesDone}/${p.messagesTotal}`);
      }
    },
  });
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  process.stderr.write('\n');
  const note = `${summary.counts.messages} messages, ${summary.counts.zerver_usermessage} UserMessage rows, ${shape.users} users, ${shape.channels} channels`;
  const rate = summary.counts.messages! / seconds;
  record({ name: 'export messages/s', value: rate, unit: 'msg/s', ceiling, note });
  // Expanding UserMessage rows, checksums and the contract's shape cost a multiple of a bare read.
  record({
    name: 'export speed / bare read',
    value: rate / ceiling,
    unit: 'x',
    target: 0.07,
    higherIsBetter: true,
    note,
  });
  record({
    name: 'export peak RSS growth',
    value: (peak - baseline) / 2 ** 20,
    unit: 'MB',
    target: 256,
    note,
  });
} finally {
  rmSync(work, { recursive: true, force: true });
  cleanup();
}
