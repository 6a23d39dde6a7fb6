/**
 * Builds what runs: dist/server and dist/main (the TypeScript sources,
 * transpiled file by file), dist/main/preload.cjs and the admin UI
 * (renderer/dist). `npm start` runs it with --if-stale, so the server starts
 * as plain `node dist/server/cli.js` without a TypeScript loader at run time.
 *
 * Types are checked by `npm run typecheck` (and `npm run build`), not here:
 * the sources use isolatedModules and verbatimModuleSyntax, so each file
 * transpiles on its own exactly as tsc would emit it.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildPreload } from '../main/build.js';
import { buildRenderer, ensureRenderer } from '../renderer/build.js';

export const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const DIST = path.join(ROOT, 'dist');

/** Source folders compiled into dist/ under the same names. */
const SOURCE_DIRS = ['server', 'main'];
/**
 * Sources not transpiled one to one: the preload's build script, and the
 * preload itself, which is bundled into dist/main/preload.cjs instead.
 */
const NOT_TRANSPILED = new Set(['main/build.ts', 'main/preload.ts']);
/** Files whose change alters the output although no source changed. */
const BUILD_INPUTS = ['scripts/build.ts', 'tsconfig.json', 'package-lock.json'];
/** Written last; a build without it is unfinished. */
const STAMP = '.build-inputs.json';

interface Stamp {
  outputs: string[];
  inputs: Record<string, string>;
}

const toPosix = (file: string) => file.split(path.sep).join('/');

const sha256 = (file: string) =>
  createHash('sha256')
    .update(readFileSync(path.join(ROOT, file)))
    .digest('hex');

/** Every file under `dir`, relative to it (POSIX separators). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => toPosix(path.relative(dir, path.join(entry.parentPath, entry.name))))
    .sort();
}

/** The TypeScript files dist/ is made of (relative to the repository). */
function sources(): string[] {
  return SOURCE_DIRS.flatMap((dir) =>
    filesUnder(path.join(ROOT, dir)).map((f) => `${dir}/${f}`),
  ).filter((f) => f.endsWith('.ts'));
}

/**
 * Why dist/ needs building, or null when it is current: every output of the
 * last build is there, no input changed and no source was added or removed.
 */
export function appStaleness(outDir = DIST): string | null {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(outDir, STAMP), 'utf8')) as Stamp;
  } catch {
    return 'not built yet';
  }
  const missing = stamp.outputs.find((name) => !existsSync(path.join(outDir, name)));
  if (missing) return `${missing} is missing`;
  const added = sources().find((file) => !(file in stamp.inputs));
  if (added) return `${added} is new`;
  for (const [file, hash] of Object.entries(stamp.inputs)) {
    if (!existsSync(path.join(ROOT, file))) return `${file} is gone`;
    if (sha256(file) !== hash) return `${file} changed`;
  }
  return null;
}

/**
 * Builds dist/ in a sibling folder and renames it into place, so a server
 * starting meanwhile (or a concurrent build) never sees half of one.
 */
export async function buildApp(outDir = DIST): Promise<string> {
  const parent = path.dirname(outDir);
  mkdirSync(parent, { recursive: true });
  const work = mkdtempSync(path.join(parent, `.${path.basename(outDir)}-`));
  try {
    const inputs = sources();
    await build({
      absWorkingDir: ROOT,
      entryPoints: inputs.filter((f) => !NOT_TRANSPILED.has(f)),
      outdir: work,
      outbase: ROOT,
      bundle: false,
      format: 'esm',
      platform: 'node',
      target: ['node22.12'],
      sourcemap: true,
      logLevel: 'warning',
    });
    await buildPreload(path.join(work, 'main', 'preload.cjs'));
    const stamp: Stamp = {
      outputs: filesUnder(work),
      inputs: Object.fromEntries([...inputs, ...BUILD_INPUTS].sort().map((f) => [f, sha256(f)])),
    };
    writeFileSync(path.join(work, STAMP), `${JSON.stringify(stamp, null, 1)}\n`);
    // A concurrent build may have just put the same output there: keep it.
    if (appStaleness(outDir) !== null) {
      rmSync(outDir, { recursive: true, force: true });
      try {
        renameSync(work, outDir);
      } catch (err) {
        if (appStaleness(outDir) !== null) throw err;
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return outDir;
}

/** Builds what is missing or out of date; returns what was built and why. */
export async function ensureBuilt(outDir = DIST): Promise<string[]> {
  const built: string[] = [];
  const app = appStaleness(outDir);
  if (app !== null) {
    await buildApp(outDir);
    built.push(`${path.relative(process.cwd(), outDir) || '.'} (${app})`);
  }
  const renderer = await ensureRenderer();
  if (renderer !== null) built.push(`the admin UI and chat (${renderer})`);
  return built;
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  // `--if-stale` (npm start's prestart): a no-op when everything is current.
  const run = process.argv.includes('--if-stale')
    ? ensureBuilt()
    : Promise.all([buildApp(), buildRenderer()]).then(() => ['dist/ and the admin UI']);
  run.then(
    (built) => {
      for (const what of built) console.log(`built ${what}`);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
