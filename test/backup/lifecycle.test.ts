import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { backUpDataDirectory, backupsOf } from '../../server/backup/index.js';
import { createServer } from '../../server/index.js';
import { createOrganization } from '../../server/realm/organization.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-backup-life-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('closing the server stops a running backup, removes its partial file, and closes the database', async () => {
  const server = await createServer({ dataDir, port: 0, automaticBackups: false });
  const db = server.ctx.db;
  // Many pages, so the copy is still running when close() starts.
  db.exec('CREATE TABLE ballast (data BLOB)');
  const insert = db.prepare('INSERT INTO ballast (data) VALUES (?)');
  for (let i = 0; i < 120; i += 1) insert.run(Buffer.alloc(256 * 1024, i));

  const backups = backupsOf(server.ctx);
  const id = backups.start(false);
  const folder = path.join(dataDir, 'backups');
  while (!existsSync(folder) || readdirSync(folder).length === 0) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  await server.close();

  expect(backups.progress(id)).toEqual({
    state: 'failed',
    fraction: expect.any(Number),
    error: 'The backup was stopped because the server is closing',
  });
  expect(backups.progress(id).fraction).toBeLessThan(1);
  expect(readdirSync(folder)).toEqual([]);
  expect(db.open).toBe(false);
  expect(() => backups.start(false)).toThrow('The server is restarting; try again in a moment');
});

it('restart() serves on the same port with a fresh context and the same data', async () => {
  const server = await createServer({ dataDir, port: 0, automaticBackups: false });
  try {
    await createOrganization(server.ctx, {
      name: 'Restart Org',
      emailDomain: 'restart.hearth',
      ownerEmail: 'owner@restart.hearth',
      ownerName: 'Rita Restart',
      ownerPassword: 'a long enough password',
    });
    const { port, url, ctx } = server;
    // What a process stopped mid-backup leaves: removed at the next start, and nothing else.
    const folder = path.join(dataDir, 'backups');
    const abandoned = path.join(folder, '.hearth-backup-20250101-000000-000.sqlite.partial');
    const unrelated = path.join(folder, '.notes.partial');
    writeFileSync(abandoned, 'half');
    writeFileSync(unrelated, 'mine');
    ctx.db.exec("CREATE TABLE IF NOT EXISTS marker (v TEXT); INSERT INTO marker VALUES ('kept')");
    await server.restart();
    expect(server.port).toBe(port);
    expect(server.url).toBe(url);
    expect(server.ctx).not.toBe(ctx);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(unrelated)).toBe(true);
    expect(ctx.db.open).toBe(false);
    expect(server.ctx.db.prepare('SELECT v FROM marker').get()).toEqual({ v: 'kept' });
    const res = await fetch(`${server.url}/api/v1/server_settings`);
    expect(res.status).toBe(200);
    expect((await res.json()).realm_name).toBe('Restart Org');
  } finally {
    await server.close();
  }
  // Closed stays closed: a restart after close does nothing.
  await server.restart();
  expect(server.ctx.db.open).toBe(false);
});

it('backUpDataDirectory copies a data directory no server is running on', async () => {
  const destination = path.join(dataDir, 'out', 'offline.sqlite');
  await backUpDataDirectory(dataDir, 'hearth.sqlite', 'files', destination, Date.UTC(2025, 4, 1));
  const copy = new Database(destination, { readonly: true });
  try {
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('SELECT name FROM realm').get()).toEqual({ name: 'Restart Org' });
    expect(
      copy.prepare("SELECT value FROM hearth_backup_info WHERE key = 'created_at'").get(),
    ).toEqual({ value: String(Date.UTC(2025, 4, 1)) });
  } finally {
    copy.close();
  }
});
