import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const RENDERER_DIST = path.join(HERE, 'dist');

/**
 * Bundles the admin UI into renderer/dist: one classic script (it must run
 * from file:// inside Electron as well as from /admin/ over HTTP), the page
 * and its stylesheet.
 */
export async function buildRenderer(outDir = RENDERER_DIST): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [path.join(HERE, 'src', 'main.ts')],
    outfile: path.join(outDir, 'app.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    sourcemap: true,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'styles.css', 'icon.svg']) {
    copyFileSync(path.join(HERE, file), path.join(outDir, file));
  }
  return outDir;
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  buildRenderer().then(
    (dir) => console.log(`admin UI built into ${path.relative(process.cwd(), dir)}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
