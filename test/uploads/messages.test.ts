import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isEvent, receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { animatedGif, pathIdOf, png, pngClaiming, uploadOk } from './support.js';

let t: TestServer;
let general: number;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.member.id, a.admin.id, a.guest.id],
  });
  watchers = new Watchers(t);
  await watchers.add('member');
  await watchers.add('owner');
  await watchers.add('admin');
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const member = () => t.as('member');

async function rendered(id: number): Promise<string> {
  const res = await member().get(`/messages/${id}`);
  expect(res.status).toBe(200);
  return res.body.message.content;
}

async function matching(operand: string, topic: string): Promise<number[]> {
  const res = await member().get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: JSON.stringify([
      { operator: 'channel', operand: general },
      { operator: 'topic', operand: topic },
      { operator: 'has', operand },
    ]),
  });
  expect(res.status).toBe(200);
  return res.body.messages.map((m: { id: number }) => m.id);
}

describe('Markdown for uploaded files', () => {
  it('an image: the link, then Zulip’s thumbnailed preview', async () => {
    const { url } = await uploadOk(member(), await png(1000, 800), 'photo.png', 'image/png');
    const id = await sendToChannel(t, 'member', general, 'render', `[photo.png](${url})`);
    expect(await rendered(id)).toBe(
      `<p><a href="${url}">photo.png</a></p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="photo.png">` +
        `<img data-original-content-type="image/png" data-original-dimensions="1000x800"` +
        ` src="/user_uploads/thumbnail/${pathIdOf(url)}/840x560.webp"></a></div>`,
    );
  });

  it('an animated image links its animated thumbnail', async () => {
    const { url } = await uploadOk(member(), await animatedGif(30, 20), 'anim.gif', 'image/gif');
    const id = await sendToChannel(t, 'member', general, 'render', `[anim.gif](${url})`);
    expect(await rendered(id)).toBe(
      `<p><a href="${url}">anim.gif</a></p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="anim.gif">` +
        `<img data-original-content-type="image/gif" data-original-dimensions="30x20"` +
        ` src="/user_uploads/thumbnail/${pathIdOf(url)}/840x560-anim.webp" data-animated="true"></a></div>`,
    );
  });

  it('an SVG previews as a rasterized thumbnail, with a transcoded still', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="red"/></svg>';
    const { url } = await uploadOk(member(), svg, 'drawing.svg', 'image/svg+xml');
    const id = await sendToChannel(t, 'member', general, 'render', `[drawing.svg](${url})`);
    const thumb = `/user_uploads/thumbnail/${pathIdOf(url)}`;
    expect(await rendered(id)).toBe(
      `<p><a href="${url}">drawing.svg</a></p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="drawing.svg">` +
        `<img data-original-content-type="image/svg+xml" data-original-dimensions="300x200"` +
        ` src="${thumb}/840x560.webp" data-transcoded-image="4032x3024.webp"></a></div>`,
    );
    const still = await member().fetch(`${thumb}/4032x3024.webp`);
    expect(still.status).toBe(200);
    expect(still.headers.get('content-type')).toBe('image/webp');
    // The SVG itself is only ever a download.
    const original = await member().fetch(url);
    expect(original.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('a file that is not an image: just the link', async () => {
    const { url } = await uploadOk(member(), '%PDF-1.4', 'doc.pdf', 'application/pdf');
    const id = await sendToChannel(t, 'member', general, 'render', `[doc.pdf](${url})`);
    expect(await rendered(id)).toBe(`<p><a href="${url}">doc.pdf</a></p>`);
  });

  it('what previews is what decoded, not what the name says', async () => {
    const fake = await uploadOk(member(), 'not really', 'fake.png', 'text/plain');
    const real = await uploadOk(member(), await png(10, 10), 'screenshot', 'image/png');
    const id = await sendToChannel(
      t,
      'member',
      general,
      'render',
      `[fake.png](${fake.url}) [screenshot](${real.url})`,
    );
    const html = await rendered(id);
    expect(html).not.toContain(`<a href="${fake.url}" title`);
    expect(html).toContain(
      `<a href="${real.url}" title="screenshot"><img data-original-content-type="image/png" data-original-dimensions="10x10"`,
    );
  });

  it('corrupt and oversized images upload fine and show as plain links', async () => {
    const corrupt = Buffer.concat([(await png(50, 50)).subarray(0, 60), Buffer.alloc(200, 7)]);
    const bomb = await pngClaiming(100_000, 100_000);
    const tall = await pngClaiming(1, 2_000_000_000);
    for (const [data, name] of [
      [corrupt, 'corrupt.png'],
      [bomb, 'bomb.png'],
      [tall, 'tall.png'],
      [Buffer.from('GIF89a garbage'), 'short.gif'],
    ] as const) {
      const { url } = await uploadOk(
        member(),
        data,
        name,
        name.endsWith('gif') ? 'image/gif' : 'image/png',
      );
      const id = await sendToChannel(t, 'member', general, 'hostile', `[${name}](${url})`);
      expect(await rendered(id)).toBe(`<p><a href="${url}">${name}</a></p>`);
      expect((await member().fetch(url)).status).toBe(200);
    }
  });
});

describe('claiming uploads', () => {
  it('sets has:attachment / has:image only for real, shareable uploads', async () => {
    const image = await uploadOk(member(), await png(5, 5), 'i.png', 'image/png');
    const doc = await uploadOk(member(), 'text', 't.txt', 'text/plain');
    const ownerOnly = await uploadOk(t.as('owner'), 'mine', 'o.txt', 'text/plain');
    const withImage = await sendToChannel(t, 'member', general, 'has', `[i.png](${image.url})`);
    const withDoc = await sendToChannel(t, 'member', general, 'has', `[t.txt](${doc.url})`);
    const madeUp = await sendToChannel(
      t,
      'member',
      general,
      'has',
      '[x.txt](/user_uploads/1/aa/madeup/x.txt)',
    );
    const notMine = await sendToChannel(t, 'member', general, 'has', `[o](${ownerOnly.url})`);
    const plain = await sendToChannel(t, 'member', general, 'has', 'no files here');

    expect(await matching('attachment', 'has')).toEqual([withImage, withDoc]);
    expect(await matching('image', 'has')).toEqual([withImage]);
    expect(await matching('link', 'has')).toEqual([withImage, withDoc, madeUp, notMine]);
    expect(plain).toBeGreaterThan(notMine);
    // The owner's file stays private: linking it did not share it.
    expect((await t.as('admin').fetch(ownerOnly.url)).status).toBe(403);
  });

  it('links written with the server’s full URL are claimed too', async () => {
    const { url } = await uploadOk(member(), 'abs', 'abs.txt', 'text/plain');
    const full = `${t.server.ctx.config.externalUrl}${url}`;
    expect(full.startsWith('http')).toBe(true);
    const id = await sendToChannel(t, 'member', general, 'absolute', `see ${full}`);
    expect(await matching('attachment', 'absolute')).toEqual([id]);
    expect((await t.as('admin').fetch(url)).status).toBe(200);
  });

  it('tells the owner (only) which messages now link the file', async () => {
    const { url } = await uploadOk(t.as('owner'), 'shared', 'shared.txt', 'text/plain');
    await watchers.clear();
    const id = await sendToChannel(t, 'owner', general, 'events', `[shared.txt](${url})`);
    const events = await watchers.take('attachment');
    expect(receivers(events, isEvent('attachment', 'update'))).toEqual(['owner']);
    const [event] = events.owner!;
    expect(event.attachment).toMatchObject({ name: 'shared.txt', path_id: pathIdOf(url) });
    expect(event.attachment.messages).toEqual([{ id, date_sent: expect.any(Number) }]);
    expect(event.attachment.messages[0].date_sent % 1000).toBe(0);

    // Re-shared by the member: still the owner's event.
    await watchers.clear();
    const second = await sendDirect(t, 'member', [t.accounts.admin.id], `[again](${url})`);
    const again = await watchers.take('attachment');
    expect(receivers(again)).toEqual(['owner']);
    expect(again.owner![0].attachment.messages.map((m: { id: number }) => m.id)).toEqual([
      id,
      second,
    ]);
    const listed = (await t.as('owner').get('/attachments')).body.attachments.find(
      (a: { name: string }) => a.name === 'shared.txt',
    );
    expect(listed.messages.map((m: { id: number }) => m.id)).toEqual([id, second]);
  });

  it('editing releases uploads the message no longer links (detached_uploads)', async () => {
    const { url } = await uploadOk(member(), await png(6, 6), 'edit.png', 'image/png');
    const id = await sendToChannel(t, 'member', general, 'edits', `[edit.png](${url})`);
    expect(await matching('attachment', 'edits')).toEqual([id]);

    const res = await member().patch(`/messages/${id}`, { content: 'changed my mind' });
    expect(res.status).toBe(200);
    expect(res.body.detached_uploads).toHaveLength(1);
    expect(res.body.detached_uploads[0]).toMatchObject({
      name: 'edit.png',
      path_id: pathIdOf(url),
      messages: [],
    });
    expect(await matching('attachment', 'edits')).toEqual([]);
    expect(await matching('image', 'edits')).toEqual([]);

    const back = await member().patch(`/messages/${id}`, { content: `again [edit.png](${url})` });
    expect(back.body.detached_uploads).toEqual([]);
    expect(await matching('attachment', 'edits')).toEqual([id]);
    expect(await matching('image', 'edits')).toEqual([id]);
  });

  it('deleting the attachment keeps the messages’ text', async () => {
    const { url } = await uploadOk(member(), 'bye', 'bye.txt', 'text/plain');
    const id = await sendToChannel(t, 'member', general, 'deleted', `[bye.txt](${url})`);
    const attachment = (await member().get('/attachments')).body.attachments.find(
      (a: { name: string }) => a.name === 'bye.txt',
    );
    expect((await member().delete(`/attachments/${attachment.id}`)).status).toBe(200);
    expect(await rendered(id)).toBe(`<p><a href="${url}">bye.txt</a></p>`);
    expect((await member().fetch(url)).status).toBe(404);
  });
});
