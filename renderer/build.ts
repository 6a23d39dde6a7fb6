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
import { type BuildOptions, build } from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
export const RENDERER_DIST = path.join(HERE, 'dist');

const STATIC_FILES = ['index.html', 'styles.css', 'icon.svg'];
/**
 * Colour tokens shared by the admin UI and the chat, if they have been moved
 * out of styles.css: copied beside index.html (the chat bundles them through
 * chat.css's `@import`).
 */
const OPTIONAL_STATIC_FILES = ['tokens.css', 'tokens-dark.css'];
/** The chat's files go into their own folder, served at /chat/<name>. */
export const CHAT_DIR = 'chat';
/** Copied into the chat's folder as they are. */
const CHAT_STATIC_FILES = ['chat.html', 'icon.svg'];
/**
 * Fonts and images that stylesheets name (KaTeX's fonts) become files beside
 * chat.css, named by content hash; the CSS refers to them relatively.
 */
const ASSET_LOADERS = {
  '.woff2': 'file',
  '.woff': 'file',
  '.ttf': 'file',
  '.svg': 'file',
  '.png': 'file',
} as const;
/** Written last into the output folder; its leading dot keeps it from being served. */
const STAMP = '.build-inputs.json';

/** What a build was made from: each input file (relative to the repo) and its sha256. */
interface Stamp {
  outputs: string[];
  inputs: Record<string, string>;
}

/** Every file under `dir`, relative to it with `/` (the chat's are in a folder). */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .map((f) => f.split(path.sep).join('/'))
    .sort();

const sha256 = (file: string) =>
  createHash('sha256')
    .update(readFileSync(path.resolve(ROOT, file)))
    .digest('hex');

/** The chat's entry, made up here (no such file). */
const CHAT_ENTRY = path.join(HERE, 'chat-entry.ts');

/** What both bundles share: one classic script each for Chromium, React in production mode. */
const SCRIPT_OPTIONS = {
  absWorkingDir: ROOT,
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
} satisfies BuildOptions;

/**
 * The chat: renderer/src/chat/main.tsx and renderer/chat.css bundled into
 * chat/chat.js and chat/chat.css. Every stylesheet the chat imports (from its
 * TypeScript, or through chat.css's `@import`, e.g. KaTeX's CSS from
 * node_modules) lands in that one chat.css, its fonts as files beside it.
 * renderer/chat.css comes last, so its rules win over the libraries'; it is
 * bundled even when no TypeScript imports it (importing it too is harmless).
 */
function buildChat(outDir: string) {
  return build({
    ...SCRIPT_OPTIONS,
    stdin: {
      contents: "import './src/chat/main.tsx';\nimport './chat.css';\n",
      resolveDir: HERE,
      sourcefile: CHAT_ENTRY,
      loader: 'ts',
    },
    outfile: path.join(outDir, CHAT_DIR, 'chat.js'),
    loader: ASSET_LOADERS,
    assetNames: '[name]-[hash]',
  });
}

/**
 * The chat page's first script, chat/boot.js: a few kilobytes that send
 * register before chat.js has arrived (see src/chat/boot.ts).
 */
function buildChatBoot(outDir: string) {
  return build({
    ...SCRIPT_OPTIONS,
    entryPoints: [path.join(HERE, 'src', 'chat', 'boot.ts')],
    outfile: path.join(outDir, CHAT_DIR, 'boot.js'),
  });
}

/**
 * Bundles the admin UI and the chat into renderer/dist. The admin UI is one
 * classic script (it must run from file:// inside Electron as well as from
 * /admin/ over HTTP), its page and its stylesheet; the chat's files are in
 * renderer/dist/chat/ (see buildChat). The build is made in a sibling folder
 * and renamed into place, so a reader (or a concurrent build) never sees half
 * of one.
 */
export async function buildRenderer(outDir = RENDERER_DIST): Promise<string> {
  const parent = path.dirname(outDir);
  const work = mkdtempSync(path.join(parent, `.${path.basename(outDir)}-`));
  chmodSync(work, 0o755);
  try {
    const [admin, chat, boot] = await Promise.all([
      build({
        ...SCRIPT_OPTIONS,
        entryPoints: [path.join(HERE, 'src', 'main.tsx')],
        outfile: path.join(work, 'app.js'),
      }),
      buildChat(work),
      buildChatBoot(work),
    ]);
    const optional = OPTIONAL_STATIC_FILES.filter((f) => existsSync(path.join(HERE, f)));
    for (const file of [...STATIC_FILES, ...optional]) {
      copyFileSync(path.join(HERE, file), path.join(work, file));
    }
    for (const file of CHAT_STATIC_FILES) {
      copyFileSync(path.join(HERE, file), path.join(work, CHAT_DIR, file));
    }
    const inputs = [
      ...Object.keys(admin.metafile.inputs),
      // The chat's entry is made up here; this script is an input anyway.
      ...Object.keys(chat.metafile.inputs).filter((f) => path.resolve(ROOT, f) !== CHAT_ENTRY),
      ...Object.keys(boot.metafile.inputs),
      ...[...STATIC_FILES, ...optional, ...CHAT_STATIC_FILES, 'build.ts'].map((f) =>
        path.relative(ROOT, path.join(HERE, f)),
      ),
    ].map((f) => f.split(path.sep).join('/'));
    const stamp: Stamp = {
      outputs: filesUnder(work),
      inputs: Object.fromEntries([...new Set(inputs)].sort().map((f) => [f, sha256(f)])),
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
 * Why the admin UI and chat in `outDir` need building, or null when it is current:
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

/** Builds the admin UI and the chat only when it is missing or out of date; returns why it built. */
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
      console.log(
        `admin UI and chat built into ${path.relative(process.cwd(), RENDERER_DIST)}${why}`,
      );
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
