/**
 * On a Node.js older than Hearth supports, the CLI says so and exits before
 * anything native loads (better-sqlite3 would crash the process silently).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OLDEST_NODE, unsupportedNode } from '../../server/node-version.js';
import { CliProcess, REPO } from './process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-node-version-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the supported Node.js', () => {
  it('is 22.12 or newer, as package.json declares', () => {
    expect(unsupportedNode('20.19.5')).toBe(
      'Hearth needs Node.js 22.12 or newer (24 LTS recommended); this is Node.js 20.19.5.',
    );
    expect(unsupportedNode('v22.11.0')).toMatch(/this is Node\.js 22\.11\.0\.$/);
    for (const good of ['22.12.0', '22.20.1', '24.0.0', 'v24.22.3', '26.1.0']) {
      expect(unsupportedNode(good), good).toBeNull();
    }
    const { engines } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(engines.node).toBe(`^${OLDEST_NODE.major}.${OLDEST_NODE.minor}.0 || >=24.0.0`);
  });

  it('an older one stops the CLI with that sentence before the database is touched', async () => {
    // This process's Node, reporting an old version to everything that asks.
    const pretend = path.join(dir, 'pretend-node-20.mjs');
    writeFileSync(
      pretend,
      "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.19.5' } });\n",
    );
    const dataDir = path.join(dir, 'data');
    const cli = new CliProcess(['--data-dir', dataDir, '--port', '0'], {
      NODE_OPTIONS: `--import ${pretend}`,
    });
    expect(await cli.exited).toEqual({ code: 1, signal: null });
    expect(cli.stderr.trim()).toBe(
      'Hearth needs Node.js 22.12 or newer (24 LTS recommended); this is Node.js 20.19.5.',
    );
    expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
  });
});
