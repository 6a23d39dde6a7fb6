/**
 * Preloaded into a Hearth process (NODE_OPTIONS=--import) by
 * power-cut.test.ts. It loads the power-cut VFS (power-cut-vfs.c, built by
 * the test) before the server opens its database, so the VFS sees every
 * write and every fsync SQLite makes, and tells it about the fsyncs the
 * server makes itself (group commit's fdatasync of the WAL): the changes
 * written before such a call started count once it has completed.
 *
 * POWER_CUT_AS_BEFORE=1 runs the server as it was before durable commits
 * (synchronous=NORMAL), to show the simulation loses what that lost.
 */
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

// Kept open: its SQL functions reach the VFS's record of pending writes.
const probe = new Database(':memory:');
probe.loadExtension(process.env.POWER_CUT_VFS);
const mark = probe.prepare('SELECT power_cut_mark(?)').pluck();
const synced = probe.prepare('SELECT power_cut_synced(?, ?)');

/** The copied file `fd` is open on, by the name its copy has (null: not one). */
function copiedName(fd) {
  try {
    return path.basename(fs.readlinkSync(`/proc/self/fd/${fd}`));
  } catch {
    return null;
  }
}

for (const name of ['fdatasync', 'fsync']) {
  const real = fs[name];
  fs[name] = (fd, callback) => {
    const file = copiedName(fd);
    const upTo = file === null ? null : mark.get(file);
    real(fd, (error) => {
      if (!error && upTo !== null && upTo !== undefined) synced.run(file, upTo);
      callback(error);
    });
  };
}

if (process.env.POWER_CUT_AS_BEFORE === '1') {
  const pragma = Database.prototype.pragma;
  Database.prototype.pragma = function (source, options) {
    const before = /^synchronous\s*=\s*FULL$/i.test(source) ? 'synchronous = NORMAL' : source;
    return pragma.call(this, before, options);
  };
}

// `import { fdatasync } from 'node:fs'` sees the wrapped functions.
syncBuiltinESMExports();
