/**
 * The admin UI's doors: the first-run wizard's "Import from Zulip" (the
 * running server swaps the imported organization in at a restart, and the
 * export's owner logs in with the password chosen there), and the "Move to
 * Zulip Server" page's full export with its progress, download and removal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/core/context.js';
import { createServer, type RunningServer } from '../../server/index.js';
import { bearer, failure, trpcClient } from '../trpc/client.js';

const TOKEN = 't'.repeat(43);
const FIXTURE = path.resolve(__dirname, '../fixtures/zulip-exports/zulip-12-full');
let dataDir: string;
let server: RunningServer;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-wizard-import-'));
  server = await createServer({
    dataDir,
    port: 0,
    rateLimit: false,
    adminToken: TOKEN,
    logFile: false,
  });
});
afterAll(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function restarted(previous: AppContext): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (server.ctx !== previous) {
      const res = await fetch(`${server.url}/api/v1/server_settings`).catch(() => null);
      if (res?.status === 200) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the server did not restart');
}

describe('the first-run wizard imports from Zulip', () => {
  it('refuses a path that is not an export, naming the field', async () => {
    const client = trpcClient(server.url, bearer(TOKEN));
    const error = await failure(
      client.setup.importZulip.mutate({ source: dataDir, ownerPassword: 'long enough' }),
    );
    expect(error.message).toMatch(/not a Zulip export/);
    expect(error.field).toBe('source');
    expect(await client.setup.status.query()).toEqual({ needsSetup: true });
  });

  it('refuses a short password', async () => {
    const client = trpcClient(server.url, bearer(TOKEN));
    const error = await failure(
      client.setup.importZulip.mutate({ source: FIXTURE, ownerPassword: 'x' }),
    );
    expect(error.field).toBe('password');
  });

  it('swaps the organization in at a restart, and its owner logs in', async () => {
    const client = trpcClient(server.url, bearer(TOKEN));
    const before = server.ctx;
    const done = await client.setup.importZulip.mutate({
      source: FIXTURE,
      ownerPassword: 'a good password',
    });
    expect(done).toMatchObject({ restartRequired: true, ownerEmail: 'desdemona@acme.example.com' });
    await restarted(before);
    expect(await trpcClient(server.url, bearer(TOKEN)).setup.status.query()).toEqual({
      needsSetup: false,
    });
    const res = await fetch(`${server.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        username: 'desdemona@acme.example.com',
        password: 'a good password',
      }),
    });
    expect(res.status).toBe(200);
    const again = await failure(
      trpcClient(server.url, bearer(TOKEN)).setup.importZulip.mutate({
        source: FIXTURE,
        ownerPassword: 'a good password',
      }),
    );
    expect(again.message).toBe('The organization has already been set up');
  });
});

describe('the Move to Zulip Server page', () => {
  it('writes a full export with progress, offers its download and removes it', async () => {
    const client = trpcClient(server.url, bearer(TOKEN));
    const overview = await client.zulip.overview.query();
    expect(overview).toMatchObject({ profile: 'zulip-12', zulipReleaseLine: '12.x' });
    expect(overview.notTransferred.join(' ')).toMatch(/passwords/);
    const { id } = await client.zulip.startExport.mutate();
    let row = (await client.zulip.overview.query()).exports.find((e) => e.id === id)!;
    for (let i = 0; i < 200 && row.pending; i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = (await client.zulip.overview.query()).exports.find((e) => e.id === id)!;
    }
    expect(row).toMatchObject({ pending: false, export_type: 3, failed_timestamp: null });
    const download = await fetch(row.export_url!);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    await client.zulip.remove.mutate({ id });
    expect((await client.zulip.overview.query()).exports.find((e) => e.id === id)).toBeUndefined();
  });
});
