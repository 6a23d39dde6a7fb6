/**
 * Uploads no message claims are deleted after Zulip's 5 weeks, files and
 * thumbnails with them; what a message or a pending scheduled message uses
 * stays.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  deleteOldUnclaimedUploads,
  UNCLAIMED_UPLOAD_GRACE_MS,
} from '../../server/uploads/index.js';
import { isEvent, receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../messages/send-support.js';
import { png, uploadOk } from './support.js';

let t: TestServer;
let watchers: Watchers;
let general: number;
const clock = new FakeClock();

beforeAll(async () => {
  t = await startTestServer({ now: clock.now, unclaimedUploadCleanup: false });
  general = createChannel(t, {
    name: 'general',
    subscribers: [t.accounts.owner.id, t.accounts.member.id],
  });
  watchers = new Watchers(t, { event_types: ['attachment'] });
  await watchers.add('member');
  await watchers.add('owner');
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const member = () => t.as('member');

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => path.join(dir, p))
    .filter((p) => statSync(p).isFile());
}
const storedFiles = () => filesUnder(path.join(t.dataDir, 'files'));

const status = async (url: string) => {
  const res = await member().fetch(url);
  await res.arrayBuffer();
  return res.status;
};

const attachmentIds = async () =>
  ((await member().get('/attachments')).body.attachments as Array<{ id: number }>).map((a) => a.id);

describe('deleting old unclaimed uploads', () => {
  it('waits the whole grace period, then deletes the upload, its file and thumbnails; only the owner hears it', async () => {
    const before = storedFiles();
    const { url } = await uploadOk(member(), await png(400, 300), 'pic.png', 'image/png');
    const [id] = (await attachmentIds()).slice(-1);
    const added = storedFiles().filter((f) => !before.includes(f));
    expect(added.length).toBeGreaterThan(1); // the file and its thumbnails
    await watchers.clear();

    clock.advance(UNCLAIMED_UPLOAD_GRACE_MS / 1000 - 60);
    expect(deleteOldUnclaimedUploads(t.server.ctx)).toBe(0);
    expect(await status(url)).toBe(200);

    clock.advance(120);
    expect(deleteOldUnclaimedUploads(t.server.ctx)).toBe(1);
    expect(await status(url)).toBe(404);
    expect(await attachmentIds()).not.toContain(id);
    for (const file of added) expect(existsSync(file), file).toBe(false);
    const events = await watchers.take();
    expect(receivers(events, isEvent('attachment', 'remove'))).toEqual(['member']);
    expect(events.member![0]).toMatchObject({ attachment: { id }, upload_space_used: 0 });
    // Nothing is left to delete twice.
    expect(deleteOldUnclaimedUploads(t.server.ctx)).toBe(0);
  });

  it('keeps what a message links and what a pending scheduled message mentions', async () => {
    const linked = await uploadOk(member(), 'linked', 'linked.txt', 'text/plain');
    await sendToChannel(t, 'member', general, 'files', `[linked](${linked.url})`);
    const scheduled = await uploadOk(member(), 'later', 'later.txt', 'text/plain');
    const res = await member().post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'files',
      content: `[later](${scheduled.url})`,
      scheduled_delivery_timestamp: Math.floor(clock.now() / 1000) + 100 * 24 * 3600,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const loose = await uploadOk(member(), 'loose', 'loose.txt', 'text/plain');

    clock.advance(UNCLAIMED_UPLOAD_GRACE_MS / 1000 + 60);
    expect(deleteOldUnclaimedUploads(t.server.ctx)).toBe(1);
    expect(await status(linked.url)).toBe(200);
    expect(await status(scheduled.url)).toBe(200);
    expect(await status(loose.url)).toBe(404);
  });

  it('deletes, once old enough, an upload whose only message was deleted', async () => {
    const { url } = await uploadOk(member(), 'gone', 'gone.txt', 'text/plain');
    const messageId = await sendToChannel(t, 'member', general, 'files', `[gone](${url})`);
    clock.advance(UNCLAIMED_UPLOAD_GRACE_MS / 1000 + 60);
    expect(deleteOldUnclaimedUploads(t.server.ctx)).toBe(0);
    expect((await t.as('owner').delete(`/messages/${messageId}`)).status).toBe(200);
    expect(deleteOldUnclaimedUploads(t.server.ctx)).toBe(1);
    expect(await status(url)).toBe(404);
  });
});

it('the cron job started by createServer deletes them', async () => {
  const own = new FakeClock();
  const server = await startTestServer({ now: own.now, unclaimedUploadCleanup: '* * * * * *' });
  try {
    const { url } = await uploadOk(server.as('member'), 'old', 'old.txt', 'text/plain');
    own.advance(UNCLAIMED_UPLOAD_GRACE_MS / 1000 + 60);
    const deadline = Date.now() + 5000;
    let code = 200;
    while (code === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const res = await server.as('member').fetch(url);
      await res.arrayBuffer();
      code = res.status;
    }
    expect(code).toBe(404);
  } finally {
    await server.close();
  }
});
