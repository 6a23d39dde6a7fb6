/**
 * The one data directory the CLI and the desktop app share: the per-OS
 * default, and a module main/ can import without starting anything.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCliOptions } from '../../server/cli.js';
import { defaultDataDir } from '../../server/data-dir.js';

describe('defaultDataDir', () => {
  it('is %APPDATA%\\Hearth on Windows, or the roaming folder under the profile', () => {
    const env = { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' };
    expect(defaultDataDir({ platform: 'win32', env, home: 'C:\\Users\\ann' })).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\Hearth',
    );
    expect(defaultDataDir({ platform: 'win32', env: {}, home: 'C:\\Users\\ann' })).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\Hearth',
    );
  });

  it('is ~/Library/Application Support/Hearth on macOS', () => {
    expect(defaultDataDir({ platform: 'darwin', env: {}, home: '/Users/ann' })).toBe(
      '/Users/ann/Library/Application Support/Hearth',
    );
  });

  it('is $XDG_DATA_HOME/hearth elsewhere, ~/.local/share/hearth without it', () => {
    expect(defaultDataDir({ platform: 'linux', env: {}, home: '/home/ann' })).toBe(
      '/home/ann/.local/share/hearth',
    );
    expect(
      defaultDataDir({ platform: 'linux', env: { XDG_DATA_HOME: '/data/ann' }, home: '/home/ann' }),
    ).toBe('/data/ann/hearth');
    expect(defaultDataDir({ platform: 'freebsd', env: {}, home: '/home/ann' })).toBe(
      '/home/ann/.local/share/hearth',
    );
  });

  it('ignores an empty or relative XDG_DATA_HOME, as the XDG spec says', () => {
    for (const XDG_DATA_HOME of ['', 'share', './x']) {
      expect(defaultDataDir({ platform: 'linux', env: { XDG_DATA_HOME }, home: '/home/ann' })).toBe(
        '/home/ann/.local/share/hearth',
      );
    }
  });

  it('is what the CLI uses when neither --data-dir nor HEARTH_DATA_DIR is given', () => {
    expect(parseCliOptions([], {}).dataDir).toBe(path.resolve(defaultDataDir()));
    expect(parseCliOptions([], { HEARTH_DATA_DIR: '/srv/h' }).dataDir).toBe(path.resolve('/srv/h'));
  });

  it('lives in a module that imports nothing but Node built-ins', () => {
    const source = readFileSync(
      fileURLToPath(new URL('../../server/data-dir.ts', import.meta.url)),
      'utf8',
    );
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((name) => name!.startsWith('node:'))).toBe(true);
  });
});
