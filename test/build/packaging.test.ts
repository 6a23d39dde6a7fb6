/**
 * electron-builder cannot run here (no Electron binary, no network), so this
 * checks what electron-builder.yml promises: a valid configuration, the
 * product's name and metadata, icons made from renderer/icon.svg, native
 * modules unpacked from the asar, and a file filter that ships everything
 * the built app loads and nothing of the sources, tests or unused data.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { minimatch } from 'minimatch';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../scripts/build.js';
import { ICNS_TYPES, ICO_SIZES, LINUX_SIZES, renderIcon } from '../../scripts/icons.js';
import { BUILD_TIMEOUT_MS, built } from './process.js';

// biome-ignore lint/suspicious/noExplicitAny: the configuration is checked against electron-builder's schema
const config: Record<string, any> = parse(
  readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8'),
);
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const NODE_MODULES = realpathSync(path.join(ROOT, 'node_modules'));

const patterns: string[] = config.files;
const matches = (file: string, pattern: string) => minimatch(file, pattern, { dot: true });

/** A package being built: the platform's section of the configuration and the target arch. */
interface Target {
  os: 'linux' | 'mac' | 'win';
  arch: string;
}

/**
 * Whether electron-builder puts `file` (relative to the app folder) into the
 * package: the app's own files when a `files` pattern takes them, the
 * production dependencies always; either unless an exclusion drops them. A
 * platform's own `files` add to the top-level ones, with `${arch}` expanded.
 */
function shipped(file: string, target: Target = { os: 'linux', arch: 'x64' }): boolean {
  const own: string[] = (config[target.os]?.files ?? []).map((p: string) =>
    // biome-ignore lint/suspicious/noTemplateCurlyInString: electron-builder's file macro
    p.replaceAll('${arch}', target.arch),
  );
  const all = [...patterns, ...own];
  const taken =
    file.startsWith('node_modules/') || all.some((p) => !p.startsWith('!') && matches(file, p));
  return taken && !all.some((p) => p.startsWith('!') && matches(file, p.slice(1)));
}

const unpacked = (file: string) =>
  (config.asarUnpack as string[]).some((pattern) => matches(file, pattern));

/** Every file under a folder of the repository (relative to the repository). */
function filesUnder(dir: string): string[] {
  const base = path.join(ROOT, dir);
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .map((f) => f.split(path.sep).join('/'));
}

/** A resolved module file as the package sees it: node_modules/... */
function inPackage(file: string): string {
  const real = realpathSync(file);
  if (real.startsWith(NODE_MODULES + path.sep)) {
    return `node_modules/${path.relative(NODE_MODULES, real).split(path.sep).join('/')}`;
  }
  return path.relative(ROOT, real).split(path.sep).join('/');
}

/** The module specifiers each compiled file of dist/server and dist/main imports. */
function compiledImports(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of [...filesUnder('dist/server'), ...filesUnder('dist/main')]) {
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(path.join(ROOT, file), 'utf8');
    const specifiers = [
      ...code.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^'"]+)["']/g),
      ...code.matchAll(/(?:^|\n)\s*import\s*["']([^'"]+)["']/g),
      ...code.matchAll(/(?:require|import)\(\s*["']([^'"]+)["']\s*\)/g),
    ].map((m) => m[1]!);
    found.set(file, specifiers);
  }
  return found;
}

describe('electron-builder.yml', () => {
  it("is valid by electron-builder's own schema", () => {
    const schema = JSON.parse(
      readFileSync(path.join(NODE_MODULES, 'app-builder-lib', 'scheme.json'), 'utf8'),
    );
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    // The check can fail: an unknown key is refused.
    expect(validate({ ...config, productname: 'x' })).toBe(false);
  });

  it('names the product Hearth, here and in package.json (the app name in development)', () => {
    expect(config.productName).toBe('Hearth');
    expect(pkg.productName).toBe('Hearth');
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z][a-z0-9-]*)+$/);
  });

  it('builds an AppImage and a deb with a homepage, a maintainer e-mail, a category and a description', () => {
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.extraMetadata.homepage).toMatch(/^https:\/\/[\w.-]+/);
    expect(config.linux.maintainer).toMatch(/^[^<>]+ <[^@\s<>]+@[^@\s<>]+\.[a-z]+>$/);
    expect(config.extraMetadata.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(config.linux.category).toBeTruthy();
    expect(config.linux.desktop.entry.Categories).toMatch(/^Network;/);
    expect(config.linux.description.length).toBeGreaterThan(40);
    expect(config.linux.synopsis).toBeTruthy();
  });

  it('builds an NSIS installer for Windows and a dmg for macOS', () => {
    expect(config.win.target).toContain('nsis');
    expect(config.mac.target).toContain('dmg');
  });

  it('compiles nothing: the native modules are prebuilt Node-API addons, unpacked from the asar', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.buildDependenciesFromSource).toBe(false);
    expect(config.nodeGypRebuild).toBe(false);
    // Node-API addons load in Electron as built: both modules ship them.
    expect(readdirSync(path.join(NODE_MODULES, 'better-sqlite3', 'prebuilds'))).toContain(
      `${process.platform}-${process.arch}.node`,
    );
    const natives = filesUnder('node_modules/better-sqlite3')
      .concat(filesUnder('node_modules/sharp'), filesUnder('node_modules/@img'))
      .map((f) => f.replace(/^.*?node_modules\//, 'node_modules/'))
      .filter((f) => shipped(f));
    const addons = natives.filter((f) => f.endsWith('.node'));
    expect(addons.some((f) => f.startsWith('node_modules/better-sqlite3/prebuilds/'))).toBe(true);
    expect(addons.some((f) => f.startsWith('node_modules/@img/'))).toBe(true);
    // sharp's addon loads libvips from beside it: the whole of sharp and @img is unpacked.
    for (const file of natives) {
      if (file.endsWith('.node') || !file.startsWith('node_modules/better-sqlite3/')) {
        expect(unpacked(file), file).toBe(true);
      }
    }
    // No source, build script or local build of SQLite ships.
    for (const file of [
      'node_modules/better-sqlite3/binding.gyp',
      'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c',
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    ]) {
      expect(shipped(file), file).toBe(false);
    }
  });

  it.each<[Target['os'], string, string]>([
    ['linux', 'x64', 'linux-x64.node'],
    ['linux', 'arm64', 'linux-arm64.node'],
    ['mac', 'x64', 'darwin-x64.node'],
    ['mac', 'arm64', 'darwin-arm64.node'],
    ['win', 'x64', 'win32-x64.node'],
    ['win', 'arm64', 'win32-arm64.node'],
  ])("a %s %s package keeps only that platform's SQLite addon", (os, arch, addon) => {
    const prebuilds = readdirSync(path.join(NODE_MODULES, 'better-sqlite3', 'prebuilds'));
    expect(prebuilds).toContain(addon);
    const kept = prebuilds
      .map((name) => `node_modules/better-sqlite3/prebuilds/${name}`)
      .filter((file) => shipped(file, { os, arch }));
    expect(kept).toEqual([`node_modules/better-sqlite3/prebuilds/${addon}`]);
  });
});

describe('the icons', () => {
  const icon = (name: string) => readFileSync(path.join(ROOT, 'build', name));

  it('are where the configuration says, in each OS format', async () => {
    expect(config.directories.buildResources).toBe('build');
    expect(config.mac.icon).toBe('build/icon.icns');
    expect(config.win.icon).toBe('build/icon.ico');
    expect(config.linux.icon).toBe('build/icons');

    expect(await sharp(icon('icon.png')).metadata()).toMatchObject({
      format: 'png',
      width: 1024,
      height: 1024,
    });
    for (const size of LINUX_SIZES) {
      const meta = await sharp(icon(`icons/${size}x${size}.png`)).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
    }

    const ico = icon('icon.ico');
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([
      0,
      1,
      ICO_SIZES.length,
    ]);
    const icoSizes = ICO_SIZES.map((_, i) => ico.readUInt8(6 + 16 * i) || 256);
    expect(icoSizes).toEqual(ICO_SIZES);

    const icns = icon('icon.icns');
    expect(icns.toString('ascii', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
      types.push(icns.toString('ascii', at, at + 4));
    }
    expect(types).toEqual(ICNS_TYPES.map(([type]) => type));
  });

  it('match renderer/icon.svg (run `npm run icons` after changing it)', async () => {
    const raw = (png: Buffer) => sharp(png).raw().toBuffer();
    const fresh = await raw(await renderIcon(512));
    expect((await raw(icon('icons/512x512.png'))).equals(fresh)).toBe(true);
  });
});

describe('the files packaged, after a build', () => {
  beforeAll(async () => {
    await built();
  }, BUILD_TIMEOUT_MS);

  it('every path the configuration names exists', () => {
    const candidates = [
      ...filesUnder('dist'),
      ...filesUnder('renderer'),
      'package.json',
      ...filesUnder('server'),
    ];
    for (const pattern of patterns.filter((p) => !p.startsWith('!'))) {
      expect(
        candidates.some((f) => matches(f, pattern)),
        `nothing matches ${pattern}`,
      ).toBe(true);
    }
  });

  it("ship the app's entry points, the compiled server and the admin UI", () => {
    for (const file of [
      pkg.main,
      'dist/main/preload.cjs',
      'dist/server/cli.js',
      'dist/server/index.js',
      'renderer/dist/index.html',
      'renderer/dist/app.js',
      'renderer/dist/chat/chat.html',
      'renderer/dist/chat/chat.js',
      'renderer/dist/chat/chat.css',
      'package.json',
    ]) {
      expect(shipped(file), file).toBe(true);
    }
    expect(pkg.main).toBe('dist/main/index.js');
  });

  it('leave out sources, tests, build scripts, source maps and build stamps', () => {
    for (const file of [
      'server/cli.ts',
      'main/index.ts',
      'renderer/src/main.ts',
      'test/build/packaging.test.ts',
      'scripts/build.ts',
      'dist/server/cli.js.map',
      'dist/.build-inputs.json',
      'renderer/dist/.build-inputs.json',
      'renderer/dist/app.js.map',
      'renderer/dist/chat/chat.js.map',
      'electron-builder.yml',
      'build/icon.png',
    ]) {
      expect(shipped(file), file).toBe(false);
    }
  });

  it('ship the one emoji sprite sheet served, and leave out the other images and content nothing loads', () => {
    expect(shipped('node_modules/emoji-datasource/emoji.json')).toBe(true);
    expect(shipped('node_modules/emoji-datasource/package.json')).toBe(true);
    const emoji = filesUnder('node_modules/emoji-datasource').map((f) =>
      f.replace(/^.*?node_modules\//, 'node_modules/'),
    );
    expect(emoji.filter((f) => f.includes('/img/')).length).toBeGreaterThan(1);
    // Served at /static/generated/emoji/sheet-google-32.png (server/emoji/sprites.ts).
    expect(emoji.filter((f) => shipped(f)).sort()).toEqual([
      'node_modules/emoji-datasource/LICENSE',
      'node_modules/emoji-datasource/emoji.json',
      'node_modules/emoji-datasource/img/google/sheets/32.png',
      'node_modules/emoji-datasource/package.json',
    ]);
    // Other sizes and sets, were a release of the package to bring them, stay behind.
    for (const file of [
      'node_modules/emoji-datasource/img/google/sheets/64.png',
      'node_modules/emoji-datasource/img/google/64/1f600.png',
      'node_modules/emoji-datasource/img/apple/sheets/32.png',
      'node_modules/emoji-datasource/img/twitter/sheets/32.png',
    ]) {
      expect(shipped(file), file).toBe(false);
    }
    for (const file of [
      'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c',
      'node_modules/better-sqlite3/src/better_sqlite3.cpp',
      'node_modules/react-dom/index.js',
      'node_modules/katex/dist/fonts/KaTeX_Main-Regular.woff2',
      'node_modules/fastify/README.md',
    ]) {
      expect(shipped(file), file).toBe(false);
    }
    expect(shipped('node_modules/better-sqlite3/lib/index.js')).toBe(true);
  });

  it('ship every file the compiled code imports relatively', () => {
    let relative = 0;
    for (const [file, specifiers] of compiledImports()) {
      for (const specifier of specifiers) {
        if (!specifier.startsWith('.')) continue;
        relative++;
        const target = path.posix.join(path.posix.dirname(file), specifier);
        expect(existsSync(path.join(ROOT, target)), `${file} imports ${specifier}`).toBe(true);
        expect(shipped(target), `${file} imports ${specifier}`).toBe(true);
      }
    }
    expect(relative).toBeGreaterThan(500);
  });

  it('ship every package file the compiled server and shell import', () => {
    const specifiers = new Set([...compiledImports().values()].flat());
    const bare = [...specifiers].filter(
      (s) => !s.startsWith('.') && !s.startsWith('node:') && s !== 'electron',
    );
    expect(bare).toEqual(expect.arrayContaining(['fastify', 'better-sqlite3', 'tlds']));

    // Resolved the way the built app resolves them: as ES modules from dist/server.
    const script = `for (const s of JSON.parse(process.argv[1])) console.log(import.meta.resolve(s));`;
    const resolved = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify(bare)],
      { cwd: path.join(ROOT, 'dist', 'server'), encoding: 'utf8' },
    )
      .trim()
      .split('\n')
      .map((url) => inPackage(new URL(url).pathname));
    expect(resolved).toHaveLength(bare.length);
    for (const file of resolved) expect(shipped(file), file).toBe(true);
    // Read at run time through createRequire (server/markdown/emoji.ts).
    expect(shipped('node_modules/emoji-datasource/emoji.json')).toBe(true);
  });
});
