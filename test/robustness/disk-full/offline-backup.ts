/**
 * Run by disk-full.test.ts in a process whose files may not grow past a
 * limit (`ulimit -f`): backs up the data directory given, and prints the
 * error it failed with.
 */
import { backUpDataDirectory } from '../../../server/backup/index.js';
import { DATABASE_FILE, FILES_DIR } from '../../../server/index.js';

const [dataDir, destination] = process.argv.slice(2) as [string, string];
try {
  await backUpDataDirectory(dataDir, DATABASE_FILE, FILES_DIR, destination);
  console.log('written');
} catch (err) {
  console.log(`failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}
