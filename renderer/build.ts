import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
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

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
export const RENDERER_DIST = path.join(HERE, 'dist');

const STATIC_FILES = ['index.html', 'styles.css', 'icon.svg'];
/** Written last into the output folder; its leading dot keeps it from being served. */
const STAMP = '.build-inputs.json';

/** What a build was made from: each input file (relative to the repo) and its sha256. */
interface Stamp {
  outputs: string[];
  inputs: Record<string, string>;
}

const sha256 = (file: string) =>
  createHash('sha256')
    .update(readFileSync(path.resolve(ROOT, file)))
    .digest('hex');

/**
 * Bundles the admin UI into renderer/dist: one classic script (it must run
 * from file:// inside Electron as well as from /admin/ over HTTP), the page
 * and its stylesheet. The build is made in a sibling folder and renamed into
 * place, so a reader (or a concurrent build) never sees half of one.
 */
export async function buildRenderer(outDir = RENDERER_DIST): Promise<string> {
  const parent = path.dirname(outDir);
  const work = mkdtempSync(path.join(parent, `.${path.basename(outDir)}-`));
  chmodSync(work, 0o755);
  try {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: [path.join(HERE, 'src', 'main.tsx')],
      outfile: path.join(work, 'app.js'),
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: ['chrome120'],
      jsx: 'automatic',
      // React's development build checks a lot and is several times larger.
      define: { 'process.env.NODE_ENV': '"production"' },
      sourcemap: true,
      minify: true,
      legalComments: 'none',
      logLevel: 'warning',
      metafile: true,
    });
    for (const file of STATIC_FILES) copyFileSync(path.join(HERE, file), path.join(work, file));
    const inputs = [
      ...Object.keys(result.metafile.inputs),
      ...[...STATIC_FILES, 'build.ts'].map((f) => path.relative(ROOT, path.join(HERE, f))),
    ].map((f) => f.split(path.sep).join('/'));
    const stamp: Stamp = {
      outputs: readdirSync(work).sort(),
      inputs: Object.fromEntries(inputs.sort().map((f) => [f, sha256(f)])),
    };
    writeFileSync(path.join(work, STAMP), `${JSON.stringify(stamp, null, 1)}\n`);
    // A concurrent build may have just put the same output there: keep it.
    if (rendererStaleness(outDir) !== null) {
      rmSync(outDir, { recursive: true, force: true });
      try {
        renameSync(work, outDir);
      } catch (err) {
        if (rendererStaleness(outDir) !== null) throw err;
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return outDir;
}

/**
 * Why the admin UI in `outDir` needs building, or null when it is current:
 * it is current when every output is there and every input the last build
 * read (sources, the packages it bundled, this script) is unchanged.
 */
export function rendererStaleness(outDir = RENDERER_DIST): string | null {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(outDir, STAMP), 'utf8')) as Stamp;
  } catch {
    return 'not built yet';
  }
  const missing = stamp.outputs.find((name) => !existsSync(path.join(outDir, name)));
  if (missing) return `${missing} is missing`;
  for (const [file, hash] of Object.entries(stamp.inputs)) {
    if (!existsSync(path.resolve(ROOT, file))) return `${file} is gone`;
    if (sha256(file) !== hash) return `${file} changed`;
  }
  return null;
}

/** Builds the admin UI only when it is missing or out of date; returns why it built. */
export async function ensureRenderer(outDir = RENDERER_DIST): Promise<string | null> {
  const reason = rendererStaleness(outDir);
  if (reason !== null) await buildRenderer(outDir);
  return reason;
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  // `--if-stale` (npm start's prestart): a no-op when the build is current.
  const run = process.argv.includes('--if-stale')
    ? ensureRenderer().then((reason) => reason && ` (${reason})`)
    : buildRenderer().then(() => '');
  run.then(
    (why) => {
      if (why === null) return;
      console.log(`admin UI built into ${path.relative(process.cwd(), RENDERER_DIST)}${why}`);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
