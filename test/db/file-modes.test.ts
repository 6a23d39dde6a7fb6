/**
 * The data directory holds API keys and password hashes: a directory Hearth
 * creates is 0700, and the database, its -wal and -shm files and the
 * zuliprc are 0600, whatever the umask (022 here, the usual default that
 * would make them 0644) and whether or not the files existed before.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOrganization } from '../../server/bootstrap.js';
import {
  createServer,
  DATABASE_FILE,
  type RunningServer,
  ZULIPRC_FILE,
} from '../../server/index.js';
import { ApiClient } from '../helpers/server.js';

let parent: string;
let savedUmask: number;
beforeAll(() => {
  parent = mkdtempSync(path.join(os.tmpdir(), 'hearth-modes-'));
  savedUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(savedUmask);
  rmSync(parent, { recursive: true, force: true });
});

const mode = (file: string) => statSync(file).mode & 0o777;

/** Starts a server in `dataDir`, creates the organization and writes through the API. */
async function startAndWrite(dataDir: string): Promise<RunningServer> {
  const server = await createServer({
    dataDir,
    port: 0,
    rateLimit: false,
    scheduledDelivery: false,
  });
  const boot = await ensureOrganization(server, { demo: false });
  const api = new ApiClient(server.url, { email: boot.ownerEmail, apiKey: boot.apiKey });
  for (let i = 0; i < 3; i++) {
    const res = await api.post('/users', {
      email: `modes${i}-${Date.now()}@example.com`,
      password: 'a long enough password',
      full_name: `Mode ${i}`,
    });
    expect(res.status).toBe(200);
  }
  return server;
}

function expectPrivateFiles(dataDir: string): void {
  const db = path.join(dataDir, DATABASE_FILE);
  // WAL mode: both exist while the database is open and has been written.
  for (const file of [db, `${db}-wal`, `${db}-shm`]) {
    expect(existsSync(file), file).toBe(true);
    expect(mode(file).toString(8), file).toBe('600');
  }
}

describe('file modes', () => {
  it('a data directory Hearth creates is 0700 and every file in it 0600', async () => {
    const dataDir = path.join(parent, 'fresh', 'hearth');
    const server = await startAndWrite(dataDir);
    try {
      expect(mode(dataDir).toString(8)).toBe('700');
      expectPrivateFiles(dataDir);
      expect(mode(path.join(dataDir, ZULIPRC_FILE)).toString(8)).toBe('600');
    } finally {
      await server.close();
    }
    // A later start keeps them so.
    const again = await startAndWrite(dataDir);
    try {
      expect(mode(dataDir).toString(8)).toBe('700');
      expectPrivateFiles(dataDir);
    } finally {
      await again.close();
    }
  });

  it('files a previous Hearth left world-readable become 0600; a directory the user made is left alone', async () => {
    const dataDir = path.join(parent, 'existing');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const first = await startAndWrite(dataDir);
    await first.close();
    const db = path.join(dataDir, DATABASE_FILE);
    chmodSync(db, 0o644);
    for (const file of [`${db}-wal`, `${db}-shm`]) if (existsSync(file)) chmodSync(file, 0o644);

    const second = await startAndWrite(dataDir);
    try {
      expectPrivateFiles(dataDir);
      expect(mode(dataDir).toString(8)).toBe('755');
    } finally {
      await second.close();
    }
  });

  it('a stale world-readable zuliprc is rewritten 0600 on first start', async () => {
    const dataDir = path.join(parent, 'stale-zuliprc');
    mkdirSync(dataDir);
    const zuliprc = path.join(dataDir, ZULIPRC_FILE);
    writeFileSync(zuliprc, '[api]\n');
    chmodSync(zuliprc, 0o644);
    const server = await startAndWrite(dataDir);
    try {
      expect(mode(zuliprc).toString(8)).toBe('600');
      expectPrivateFiles(dataDir);
    } finally {
      await server.close();
    }
  });
});
