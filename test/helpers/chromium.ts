/**
 * Finds a Chromium for the browser tests, with no download at install time:
 *
 *  1. `HEARTH_CHROMIUM=/path/to/chromium`: that browser, which must exist;
 *  2. the system's: /usr/bin/chromium, else `chromium` or `chromium-browser`
 *     on PATH;
 *  3. otherwise (or with `HEARTH_CHROMIUM=packaged`) the headless Chromium
 *     that the @sparticuz/chromium dev dependency ships inside its npm
 *     package (Linux x64), unpacked on first use (a couple of seconds) into
 *     `$TMPDIR/hearth-chromium-<package version>/`. It needs libnss3 and
 *     libexpat1 from the OS; on a system without fontconfig's configuration
 *     it draws text with the package's own fonts.
 */
import {
  accessSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export interface ChromiumChoice {
  executablePath: string;
  /** Where it came from: `HEARTH_CHROMIUM`, `system` or `packaged`. */
  source: 'HEARTH_CHROMIUM' | 'system' | 'packaged';
  /** Environment variables the browser needs on top of this process's. */
  env: Record<string, string>;
}

export interface FindChromiumOptions {
  env?: NodeJS.ProcessEnv;
  /** Absolute paths tried before PATH. */
  systemPaths?: string[];
  /** Program names looked up on PATH. */
  names?: string[];
}

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first executable system Chromium, or undefined. */
export function systemChromium(
  env: NodeJS.ProcessEnv,
  systemPaths: string[],
  names: string[],
): string | undefined {
  const onPath = (env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '')
    .flatMap((dir) => names.map((name) => path.join(dir, name)));
  return [...systemPaths, ...onPath].find(isExecutable);
}

const PACKAGE = '@sparticuz/chromium';

/** The package's own package.json, found above its entry file (its exports hide the path). */
function packageManifest(entry: string): { version: string } {
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
    if (manifest.name === PACKAGE) return manifest;
  }
  throw new Error(`${PACKAGE}'s package.json was not found above ${entry}`);
}

/**
 * The packaged Chromium, unpacked once per package version. The package
 * unpacks into os.tmpdir(), so TMPDIR points it at a private folder that is
 * renamed into place when complete: an interrupted or concurrent unpack never
 * leaves a half-written browser where the next run would take it.
 */
async function packagedChromium(): Promise<ChromiumChoice> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `No Chromium found, and ${PACKAGE} has none for ${process.platform}-${process.arch}: ` +
        'install Chromium or set HEARTH_CHROMIUM to its path',
    );
  }
  let main: string;
  try {
    main = createRequire(import.meta.url).resolve(PACKAGE);
  } catch {
    throw new Error(`No Chromium found, and ${PACKAGE} is not installed: run npm install`);
  }
  const { version } = packageManifest(main);
  const dir = path.join(os.tmpdir(), `hearth-chromium-${version}`);
  const executable = path.join(dir, 'chromium');
  // Without the system's fontconfig setup, text would not be drawn at all.
  const env: Record<string, string> = existsSync('/etc/fonts/fonts.conf')
    ? {}
    : { FONTCONFIG_FILE: path.join(dir, 'fonts.conf') };
  const choice: ChromiumChoice = { executablePath: executable, source: 'packaged', env };
  if (isExecutable(executable)) return choice;

  const { default: chromium } = await import('@sparticuz/chromium');
  const partial = mkdtempSync(`${dir}.partial-`);
  const tmpdir = process.env.TMPDIR;
  try {
    process.env.TMPDIR = partial;
    await chromium.executablePath();
    // The package's own fonts.conf names fixed folders; this one names ours.
    writeFileSync(
      path.join(partial, 'fonts.conf'),
      '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n' +
        `  <dir>${path.join(dir, 'fonts', 'fonts')}</dir>\n` +
        `  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    renameSync(partial, dir);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    if (!isExecutable(executable)) throw err; // else another run finished first
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  return choice;
}

export async function findChromium(options: FindChromiumOptions = {}): Promise<ChromiumChoice> {
  const env = options.env ?? process.env;
  const wanted = env.HEARTH_CHROMIUM;
  if (wanted && wanted !== 'packaged') {
    if (!isExecutable(wanted)) {
      throw new Error(`HEARTH_CHROMIUM=${wanted} is not an executable file`);
    }
    return { executablePath: wanted, source: 'HEARTH_CHROMIUM', env: {} };
  }
  if (wanted !== 'packaged') {
    const found = systemChromium(
      env,
      options.systemPaths ?? ['/usr/bin/chromium'],
      options.names ?? ['chromium', 'chromium-browser'],
    );
    if (found) return { executablePath: found, source: 'system', env: {} };
  }
  return packagedChromium();
}

/**
 * Launch flags for either browser: no sandbox (tests may run as root), no GPU,
 * and no background connections (the test machines have no network).
 */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];
