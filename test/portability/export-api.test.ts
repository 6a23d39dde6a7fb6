/**
 * Zulip's organization-export API on Hearth: POST /export/realm starts an
 * export in the background (public, or with consent), GET lists them with
 * their state and download URL, DELETE removes one, GET .../consents says
 * who consented; realm_export events reach administrators only; the
 * download is the Zulip-format .tar.gz the command line writes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Watcher } from '../helpers/event-queues.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let work: string;
beforeAll(async () => {
  t = await startTestServer();
  work = mkdtempSync(path.join(os.tmpdir(), 'hearth-export-api-'));
  const sub = await t.as('owner').post('/users/me/subscriptions', {
    subscriptions: JSON.stringify([{ name: 'general' }]),
    principals: JSON.stringify([t.accounts.owner.id, t.accounts.member.id]),
  });
  expect(sub.status).toBe(200);
  await sendToChannel(t, 'member', 'general', 'hello', 'public words');
  await sendDirect(t, 'owner', [t.accounts.member.id], 'owner and member');
  await sendDirect(t, 'admin', [t.accounts.member.id], 'admin and member');
});
afterAll(async () => {
  await t.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

type Export = {
  id: number;
  pending: boolean;
  export_url: string | null;
  failed_timestamp: number | null;
  deleted_timestamp: number | null;
  export_type: number;
  acting_user_id: number;
};

async function finished(id: number): Promise<Export> {
  for (let i = 0; i < 200; i++) {
    const res = await t.as('admin').get('/export/realm', {}, { skipSchema: true });
    const row = (res.body.exports as Export[]).find((e) => e.id === id)!;
    if (!row.pending) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`export ${id} did not finish`);
}

/** The messages a downloaded export holds. */
async function messagesIn(url: string): Promise<string[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/gzip/);
  const dir = mkdtempSync(path.join(work, 'dl-'));
  const file = path.join(dir, 'x.tar.gz');
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  await extract({ file, cwd: dir });
  const top = path.join(dir, path.basename(new URL(url).pathname, '.tar.gz'));
  const data = JSON.parse(readFileSync(path.join(top, 'messages-000001.json'), 'utf8'));
  return data.zerver_message.map((m: { content: string }) => m.content);
}

describe('/export/realm', () => {
  it('is for administrators', async () => {
    for (const who of ['member', 'moderator', 'guest'] as const) {
      const res = await t.as(who).post('/export/realm', { export_type: 1 });
      expect(res.body).toMatchObject({
        result: 'error',
        msg: 'Must be an organization administrator',
      });
      expect((await t.as(who).get('/export/realm')).body.msg).toBe(
        'Must be an organization administrator',
      );
    }
  });

  it('refuses an unknown export type', async () => {
    const res = await t.as('admin').post('/export/realm', { export_type: 3 }, { skipSchema: true });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Invalid export_type');
  });

  it('refuses an export with consent until an owner consents', async () => {
    const res = await t.as('admin').post('/export/realm', { export_type: 2 });
    expect(res.body.msg).toMatch(
      /^Make sure at least one Organization Owner is consenting to the export or contact .+ for help\.$/,
    );
  });

  it('lists who consented', async () => {
    const res = await t.as('admin').get('/export/realm/consents', {}, { skipSchema: true });
    expect(res.body.export_consents).toEqual(
      expect.arrayContaining([
        { user_id: t.accounts.owner.id, consented: false, email_address_visibility: 1 },
      ]),
    );
    expect(
      res.body.export_consents.some((c: { user_id: number }) => c.user_id === t.accounts.bot.id),
    ).toBe(false);
  });

  it('writes a public export in the background, telling administrators only', async () => {
    const admin = await Watcher.register(t.as('admin'), { event_types: ['realm_export'] }, 'admin');
    const member = await Watcher.register(t.as('member'), {}, 'member');
    const res = await t.as('admin').post('/export/realm', { export_type: 1 });
    expect(res.status).toBe(200);
    const row = await finished(res.body.id);
    expect(row).toMatchObject({
      acting_user_id: t.accounts.admin.id,
      export_type: 1,
      failed_timestamp: null,
    });
    const events = await admin.take('realm_export');
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events[events.length - 1].exports.find((e: Export) => e.id === row.id).pending).toBe(
      false,
    );
    expect(await member.take('realm_export')).toEqual([]);
    // Public: the channel message travels, no direct message does.
    expect(await messagesIn(row.export_url!)).toEqual(['public words']);
  });

  it('writes an export with consent holding the DMs of those who consented', async () => {
    const admin = await Watcher.register(t.as('admin'), {}, 'admin');
    const member = await Watcher.register(t.as('member'), {}, 'member');
    expect(
      (await t.as('owner').patch('/settings', { allow_private_data_export: 'true' })).status,
    ).toBe(200);
    // Administrators hear who consented (feature level 312); others do not.
    expect(await admin.take('realm_export_consent')).toEqual([
      expect.objectContaining({ user_id: t.accounts.owner.id, consented: true }),
    ]);
    expect(await member.take('realm_export_consent')).toEqual([]);
    const res = await t.as('admin').post('/export/realm', { export_type: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await finished(res.body.id);
    expect(row.export_url).toMatch(/\/exports\/realm\/.+\.tar\.gz$/);
    expect((await messagesIn(row.export_url!)).sort()).toEqual([
      'owner and member',
      'public words',
    ]);
  });

  it('deletes an export and its file', async () => {
    const list = (await t.as('admin').get('/export/realm')).body.exports as Export[];
    const done = list.find((e) => e.export_url !== null)!;
    expect((await t.as('admin').delete(`/export/realm/${done.id}`)).body.result).toBe('success');
    const after = ((await t.as('admin').get('/export/realm')).body.exports as Export[]).find(
      (e) => e.id === done.id,
    )!;
    expect(after.deleted_timestamp).not.toBeNull();
    expect(after.export_url).toBeNull();
    expect((await fetch(done.export_url!)).status).toBe(404);
    expect((await t.as('admin').delete(`/export/realm/${done.id}`)).body.msg).toBe(
      'Export already deleted',
    );
    expect((await t.as('admin').delete('/export/realm/999')).body.msg).toBe(
      'Invalid data export ID',
    );
  });

  it('allows five requests a week', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.as('admin').post('/export/realm', { export_type: 1 });
      expect(res.status).toBe(200);
      await finished(res.body.id);
    }
    const refused = await t.as('admin').post('/export/realm', { export_type: 1 });
    expect(refused.body).toMatchObject({ result: 'error', msg: 'Exceeded rate limit.' });
  });
});
