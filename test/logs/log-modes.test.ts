/**
 * The log names people and channels and holds request paths: its folder is
 * 0700 and its files, rotated ones included, 0600, like the database,
 * whatever the umask (022 here, which would give 0755 and 0644) and
 * whatever modes an older version left behind.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openFileLog } from '../../server/core/log.js';

let parent: string;
let savedUmask: number;
beforeAll(() => {
  parent = mkdtempSync(path.join(os.tmpdir(), 'hearth-log-modes-'));
  savedUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(savedUmask);
  rmSync(parent, { recursive: true, force: true });
});

const mode = (file: string) => statSync(file).mode & 0o777;

it('a new log folder is 0700 and every file, rotated ones too, 0600', async () => {
  const dataDir = path.join(parent, 'fresh');
  const log = openFileLog(dataDir, { maxBytes: 300, keep: 3 });
  for (let i = 0; i < 12; i++) log.logger.info(`line ${i} ${'x'.repeat(80)}`);
  await log.close();
  const logs = path.join(dataDir, 'logs');
  expect(mode(logs)).toBe(0o700);
  const files = readdirSync(logs).sort();
  expect(files).toEqual(['hearth.log', 'hearth.log.1', 'hearth.log.2', 'hearth.log.3']);
  for (const file of files) expect([file, mode(path.join(logs, file))]).toEqual([file, 0o600]);
});

it('tightens a folder and files an older version left readable', async () => {
  const dataDir = path.join(parent, 'older');
  const logs = path.join(dataDir, 'logs');
  mkdirSync(logs, { recursive: true });
  chmodSync(logs, 0o755);
  for (const name of ['hearth.log', 'hearth.log.1', 'hearth.log.2']) {
    writeFileSync(path.join(logs, name), '{}\n', { mode: 0o644 });
  }
  const log = openFileLog(dataDir, { keep: 5 });
  log.logger.info('started again');
  await log.close();
  expect(mode(logs)).toBe(0o700);
  for (const name of ['hearth.log', 'hearth.log.1', 'hearth.log.2']) {
    expect([name, mode(path.join(logs, name))]).toEqual([name, 0o600]);
  }
});
