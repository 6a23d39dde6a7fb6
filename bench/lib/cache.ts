/**
 * Bench databases take long to fill (a million messages), so each is built
 * once into a data directory cached under the temp dir, keyed by a name, its
 * sizes and BENCH_DATA_VERSION, and every run works on a fresh copy of it.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Bump when a builder or the schema changes what a cached database holds. */
export const BENCH_DATA_VERSION = 2;

const cacheRoot = path.join(os.tmpdir(), 'hearth-bench-cache');

export async function cachedDataDir(
  key: string,
  build: (dataDir: string) => Promise<void>,
): Promise<{ dataDir: string; cleanup: () => void }> {
  const cached = path.join(cacheRoot, `${key}-v${BENCH_DATA_VERSION}`);
  if (!existsSync(cached)) {
    mkdirSync(cacheRoot, { recursive: true });
    const building = mkdtempSync(path.join(cacheRoot, `${key}-building-`));
    console.log(`  building ${key} (cached for later runs in ${cached})`);
    await build(building);
    renameSync(building, cached);
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `hearth-bench-${key}-`));
  cpSync(cached, dataDir, { recursive: true });
  return { dataDir, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}
