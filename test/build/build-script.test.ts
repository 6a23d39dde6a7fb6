/**
 * scripts/build.ts: what it puts into dist/ and when it builds again. It
 * builds into a temporary folder here, never dist/, which other tests run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appStaleness, buildApp } from '../../scripts/build.js';
import { BUILD_TIMEOUT_MS } from './process.js';

const parent = mkdtempSync(path.join(os.tmpdir(), 'hearth-dist-test-'));
const out = path.join(parent, 'dist');
const stampFile = path.join(out, '.build-inputs.json');

interface Stamp {
  outputs: string[];
  inputs: Record<string, string>;
}
const readStamp = () => JSON.parse(readFileSync(stampFile, 'utf8')) as Stamp;

beforeAll(async () => {
  await buildApp(out);
}, BUILD_TIMEOUT_MS);

afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('buildApp', () => {
  it('compiles server/ and main/ file by file, with the bundled preload', () => {
    const { outputs } = readStamp();
    expect(outputs).toEqual(
      expect.arrayContaining([
        'server/cli.js',
        'server/cli.js.map',
        'server/index.js',
        'server/data-dir.js',
        'server/db/migrations/index.js',
        'main/index.js',
        'main/preload.cjs',
      ]),
    );
    // Build tools and the unbundled preload are not part of what runs.
    expect(outputs).not.toContain('main/build.js');
    expect(outputs).not.toContain('main/preload.js');
    expect(outputs.filter((f) => !/^(server|main)\//.test(f))).toEqual([]);
    for (const file of outputs) expect(existsSync(path.join(out, file)), file).toBe(true);
  });

  it('keeps import attributes and import specifiers as written', () => {
    const links = readFileSync(path.join(out, 'server', 'markdown', 'links.js'), 'utf8');
    expect(links).toMatch(/from "tlds" with \{ type: "json" \}/);
    expect(links).toMatch(/from "\.\/escape\.js"/);
  });

  it('records the sha256 of every source and build input', () => {
    const { inputs } = readStamp();
    for (const file of [
      'server/cli.ts',
      'main/index.ts',
      'main/preload.ts',
      'main/build.ts',
      'scripts/build.ts',
      'tsconfig.json',
      'package-lock.json',
    ]) {
      expect(inputs[file], file).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe('appStaleness', () => {
  /** Runs `change` on a copy of the stamp, checks the reason, and puts the stamp back. */
  function staleAfter(change: (stamp: Stamp) => void): string | null {
    const original = readFileSync(stampFile, 'utf8');
    const stamp = JSON.parse(original) as Stamp;
    change(stamp);
    writeFileSync(stampFile, JSON.stringify(stamp));
    try {
      return appStaleness(out);
    } finally {
      writeFileSync(stampFile, original);
    }
  }

  it('is null for a current build', () => {
    expect(appStaleness(out)).toBeNull();
  });

  it('says why a build is needed: an input changed, is new or is gone', () => {
    expect(
      staleAfter((s) => {
        s.inputs['server/cli.ts'] = '0'.repeat(64);
      }),
    ).toBe('server/cli.ts changed');
    expect(
      staleAfter((s) => {
        delete s.inputs['server/data-dir.ts'];
      }),
    ).toBe('server/data-dir.ts is new');
    expect(
      staleAfter((s) => {
        s.inputs['server/removed.ts'] = '0'.repeat(64);
      }),
    ).toBe('server/removed.ts is gone');
    expect(appStaleness(out)).toBeNull();
  });

  it(
    'rebuilds when an output is missing or nothing was built',
    async () => {
      unlinkSync(path.join(out, 'server', 'data-dir.js'));
      expect(appStaleness(out)).toBe('server/data-dir.js is missing');
      expect(appStaleness(path.join(parent, 'elsewhere'))).toBe('not built yet');
      await buildApp(out);
      expect(appStaleness(out)).toBeNull();
      expect(existsSync(path.join(out, 'server', 'data-dir.js'))).toBe(true);
    },
    BUILD_TIMEOUT_MS,
  );
});
