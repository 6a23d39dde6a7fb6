/**
 * The admin UI build that `npm start` runs first (`renderer/build.ts
 * --if-stale`): built when missing or out of date, a no-op otherwise. Builds
 * into a temporary folder, never renderer/dist, which other tests serve.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureRenderer, rendererStaleness } from '../../renderer/build.js';

const parent = mkdtempSync(path.join(os.tmpdir(), 'hearth-renderer-'));
const out = path.join(parent, 'dist');
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const stampFile = path.join(out, '.build-inputs.json');
const readStamp = () =>
  JSON.parse(readFileSync(stampFile, 'utf8')) as {
    outputs: string[];
    inputs: Record<string, string>;
  };

describe('ensureRenderer', () => {
  it('builds when there is no build, and records what it read', async () => {
    expect(rendererStaleness(out)).toBe('not built yet');
    expect(await ensureRenderer(out)).toBe('not built yet');
    expect(rendererStaleness(out)).toBeNull();
    const stamp = readStamp();
    expect(stamp.outputs).toEqual(
      expect.arrayContaining(['app.js', 'app.js.map', 'icon.svg', 'index.html', 'styles.css']),
    );
    // The chat's files, in their own folder (served at /chat/<name>).
    expect(stamp.outputs).toEqual(
      expect.arrayContaining([
        'chat/chat.html',
        'chat/chat.js',
        'chat/chat.js.map',
        'chat/chat.css',
        'chat/icon.svg',
      ]),
    );
    expect(stamp.outputs.filter((f) => !f.startsWith('chat/'))).toEqual(
      expect.arrayContaining(['app.js', 'index.html']),
    );
    expect(Object.keys(stamp.inputs)).toEqual(
      expect.arrayContaining([
        'renderer/src/main.tsx',
        'renderer/src/chat/main.tsx',
        'renderer/chat.html',
        // Bundled (not copied), whether or not the chat's TypeScript imports it.
        'renderer/chat.css',
        'renderer/index.html',
        'renderer/styles.css',
        'renderer/build.ts',
        expect.stringMatching(/(^|\/)node_modules\/@trpc\/client\//),
        expect.stringMatching(/(^|\/)node_modules\/react-dom\/cjs\/react-dom-client\.production/),
        expect.stringMatching(/(^|\/)node_modules\/wouter\//),
      ]),
    );
    // React's development build (several times larger, with dev-only warnings) stays out.
    expect(Object.keys(stamp.inputs).filter((f) => f.includes('development'))).toEqual([]);
    // From the server, only the pure rules the bundles import (so a change to
    // one rebuilds), not the type-only imports (the tRPC router's types).
    expect(Object.keys(stamp.inputs).filter((f) => f.startsWith('server/'))).toEqual([
      'server/shared/html.ts',
      'server/shared/narrow-operators.ts',
      'server/shared/password-rule.ts',
      'server/shared/resolved-topics.ts',
    ]);
    // The chat's made-up entry is not a file anyone could change.
    expect(Object.keys(stamp.inputs).filter((f) => f.includes('chat-entry'))).toEqual([]);
  });

  it('rebuilds when a chat source changes', async () => {
    const stamp = readStamp();
    stamp.inputs['renderer/chat.css'] = '0'.repeat(64);
    writeFileSync(stampFile, JSON.stringify(stamp));
    expect(rendererStaleness(out)).toBe('renderer/chat.css changed');
    expect(await ensureRenderer(out)).toBe('renderer/chat.css changed');
    expect(rendererStaleness(out)).toBeNull();
  });

  it('does nothing while the build is current', async () => {
    const before = statSync(path.join(out, 'app.js')).mtimeMs;
    expect(await ensureRenderer(out)).toBeNull();
    expect(statSync(path.join(out, 'app.js')).mtimeMs).toBe(before);
  });

  it('rebuilds when an input differs from what the build read', async () => {
    const stamp = readStamp();
    stamp.inputs['renderer/src/main.tsx'] = '0'.repeat(64);
    writeFileSync(stampFile, JSON.stringify(stamp));
    expect(rendererStaleness(out)).toBe('renderer/src/main.tsx changed');
    expect(await ensureRenderer(out)).toBe('renderer/src/main.tsx changed');
    expect(rendererStaleness(out)).toBeNull();
  });

  it('rebuilds when an input is gone or an output is missing', async () => {
    const stamp = readStamp();
    stamp.inputs['renderer/src/removed.ts'] = '0'.repeat(64);
    writeFileSync(stampFile, JSON.stringify(stamp));
    expect(rendererStaleness(out)).toBe('renderer/src/removed.ts is gone');
    await ensureRenderer(out);
    rmSync(path.join(out, 'app.js'));
    expect(rendererStaleness(out)).toBe('app.js is missing');
    expect(await ensureRenderer(out)).toBe('app.js is missing');
    expect(rendererStaleness(out)).toBeNull();
  });
});
