import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const PRELOAD_OUT = path.join(HERE, '..', 'dist', 'main', 'preload.cjs');

/**
 * Bundles the preload into one CommonJS file: sandboxed preloads can neither
 * load ES modules nor reach node_modules, only `require('electron')`.
 */
export async function buildPreload(outfile = PRELOAD_OUT): Promise<string> {
  await build({
    entryPoints: [path.join(HERE, 'preload.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: ['node22.12'],
    external: ['electron'],
    logLevel: 'warning',
  });
  return outfile;
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  buildPreload().then(
    (file) => console.log(`preload built into ${path.relative(process.cwd(), file)}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
