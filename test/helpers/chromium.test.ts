import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from './chromium.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-chromium-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeBrowser(name: string, mode = 0o755): string {
  const file = path.join(dir, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, mode);
  return file;
}

describe('findChromium', () => {
  it('takes HEARTH_CHROMIUM when it names an executable, and refuses one that does not', async () => {
    const file = fakeBrowser('my-chrome');
    await expect(findChromium({ env: { HEARTH_CHROMIUM: file } })).resolves.toEqual({
      executablePath: file,
      source: 'HEARTH_CHROMIUM',
      env: {},
    });
    await expect(
      findChromium({ env: { HEARTH_CHROMIUM: path.join(dir, 'nope') } }),
    ).rejects.toThrow(/HEARTH_CHROMIUM=.*nope is not an executable/);
  });

  it('prefers the system paths, then PATH, skipping files that are not executable', async () => {
    const fixed = fakeBrowser('fixed-chromium');
    const onPath = fakeBrowser('chromium');
    fakeBrowser('chromium-browser', 0o644);
    const env = { PATH: ['/nonexistent', dir].join(path.delimiter) };
    const names = ['chromium-browser', 'chromium'];
    await expect(findChromium({ env, systemPaths: [fixed], names })).resolves.toEqual({
      executablePath: fixed,
      source: 'system',
      env: {},
    });
    await expect(
      findChromium({ env, systemPaths: ['/nonexistent/chromium'], names }),
    ).resolves.toEqual({ executablePath: onPath, source: 'system', env: {} });
  });

  it('falls back to the packaged Chromium, also when asked for it by name', async () => {
    const fixed = fakeBrowser('ignored-chromium');
    const packaged = await findChromium({
      env: { HEARTH_CHROMIUM: 'packaged', PATH: dir },
      systemPaths: [fixed],
    });
    expect(packaged.source).toBe('packaged');
    expect(packaged.executablePath).not.toBe(fixed);
    const fallback = await findChromium({ env: { PATH: '' }, systemPaths: [] });
    expect(fallback).toEqual(packaged);
  });
});
