/**
 * The real server process under the supervisor, without the shell: a start
 * that fails reports why, and the supervisor shows it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it, vi } from 'vitest';
import { type ServerChild, ServerSupervisor } from '../../main/server-supervisor.js';
import { UtilityProcess } from './electron-stand-in.js';

const ENTRY = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../main/server-process.ts',
);
const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a server that cannot start says why, and the supervisor gives up showing it', async () => {
  // A file where the data directory should be.
  const dataDir = path.join(dir, 'not-a-directory');
  writeFileSync(dataDir, 'x');
  const supervisor = new ServerSupervisor({
    entry: ENTRY,
    fork: (entry, args) => new UtilityProcess(entry, args) as unknown as ServerChild,
    dataDir,
    preferredPort: 0,
    maxCrashStreak: 1,
  });
  supervisor.start();
  await vi.waitFor(() => expect(supervisor.status().state).toBe('stopped'), { timeout: 30_000 });
  expect(supervisor.status()).toMatchObject({
    restarts: 0,
    lastError: expect.stringMatching(/EEXIST|ENOTDIR/),
  });
}, 40_000);

it('a quit while the server starts stops it cleanly once it has started', async () => {
  const dataDir = path.join(dir, 'quick-quit');
  let child: UtilityProcess | null = null;
  const supervisor = new ServerSupervisor({
    entry: ENTRY,
    fork: (entry, args) => {
      child = new UtilityProcess(entry, args);
      return child as unknown as ServerChild;
    },
    dataDir,
    preferredPort: 0,
    stopTimeoutMs: 30_000,
  });
  supervisor.start();
  expect(supervisor.status().state).toBe('starting');
  await supervisor.stop();
  expect(child!.child.exitCode).toBe(0);
  expect(supervisor.status().state).toBe('stopped');
  const log = readFileSync(path.join(dataDir, 'logs', 'hearth.log'), 'utf8');
  expect(log).toContain('Hearth listening on');
  expect(log).toContain('Stopping the server');
}, 40_000);

it('a damaged certificate authority in LAN mode: this computer only, saying why', async () => {
  const dataDir = path.join(dir, 'damaged-authority');
  mkdirSync(path.join(dataDir, 'tls'), { recursive: true });
  writeFileSync(path.join(dataDir, 'desktop-settings.json'), JSON.stringify({ lan: true }));
  writeFileSync(path.join(dataDir, 'tls', 'ca.crt'), 'damaged');
  const supervisor = new ServerSupervisor({
    entry: ENTRY,
    fork: (entry, args) => new UtilityProcess(entry, args) as unknown as ServerChild,
    dataDir,
    preferredPort: 0,
    stopTimeoutMs: 30_000,
  });
  supervisor.start();
  await vi.waitFor(() => expect(supervisor.status().state).toBe('running'), { timeout: 30_000 });
  expect(supervisor.status()).toMatchObject({
    host: '127.0.0.1',
    url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    tlsFingerprint: null,
    lastError: expect.stringMatching(
      /^The certificate authority in .* is damaged: ca\.key is missing\. .* Serving this computer only until that is resolved on the Network page\.$/,
    ),
  });
  await supervisor.stop();
  // Left as it was: the owner chooses.
  expect(readFileSync(path.join(dataDir, 'tls', 'ca.crt'), 'utf8')).toBe('damaged');
}, 40_000);
