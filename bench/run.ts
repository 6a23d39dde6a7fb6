/**
 * `npm run bench`: every benchmark, one process each so they do not share
 * caches or heaps. Performance targets live here, not in timed tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const benches = ['storage.ts', 'http-send.ts', 'markdown.ts'].filter((f) =>
  existsSync(path.join(here, f)),
);
let failed = false;
for (const file of benches) {
  console.log(`\n== ${file} ==`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, file), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
