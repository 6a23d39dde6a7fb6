/**
 * Avatars: the generated default at /user_avatars/{id}.png, POST and
 * DELETE /users/me/avatar, their realm_user (and realm_bot) events, and the
 * served uploaded pictures.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userById } from '../../server/db/queries/users.js';
import { expectError } from '../api/support.js';
import { hugeDimensionsPng, imageFile, imageInfo, pngImage } from '../emoji/images.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { quickMember } from '../helpers/fixtures.js';
import type { Account, FixtureName, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';
import { setRealm } from '../messages/send-support.js';

let t: TestServer;
let watchers: Watchers;
let picture: Buffer;
const everyone = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  for (const who of everyone) await watchers.add(who);
  picture = await pngImage(300, 200, '#0f766e');
});
afterAll(() => t.close());
beforeEach(async () => {
  setRealm(t, { avatar_changes_disabled: false });
  await watchers.clear();
});

type Who = FixtureName | Account;

const setAvatar = (who: Who, files: Record<string, File> = { file: pictureFile() }) =>
  t.as(who).post('/users/me/avatar', files, { encoding: 'multipart' });
const pictureFile = () => imageFile(picture, 'me.png', 'image/png');
const row = (id: number) => userById(t.server.ctx.db, id)!;

async function fetchImage(path: string) {
  const res = await t.anonymous().fetch(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('default avatars', () => {
  it('serves a generated picture at the URL users without a Gravatar get', async () => {
    const lee = await quickMember(t, 'Lee Default');
    t.server.ctx.db.prepare("UPDATE users SET avatar_source = 'D' WHERE id = ?").run(lee.id);
    const user = await t.as('member').get(`/users/${lee.id}`);
    expect(user.body.user.avatar_url).toBe(`/user_avatars/${lee.id}.png?version=1`);
    const { res, bytes } = await fetchImage(user.body.user.avatar_url);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(await imageInfo(bytes)).toEqual({ format: 'png', width: 100, height: 100, pages: 1 });
    const medium = await fetchImage(`/user_avatars/${lee.id}-medium.png?version=1`);
    expect(await imageInfo(medium.bytes)).toMatchObject({ width: 500, height: 500 });
    // Different people get different colours.
    const other = await fetchImage(`/user_avatars/${t.accounts.member.id}.png`);
    expect(other.bytes.equals(bytes)).toBe(false);
  });

  it('answers 404 for unknown users and anything else', async () => {
    for (const path of [
      '/user_avatars/999999.png',
      '/user_avatars/abc.png',
      `/user_avatars/${t.accounts.member.id}.jpg`,
      `/user_avatars/${t.accounts.member.id}-large.png`,
      '/user_avatars/..%2Fhearth.db',
    ]) {
      const res = await t.anonymous().fetch(path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
  });
});

describe('POST /users/me/avatar', () => {
  it('stores the picture at both sizes, bumps the version and tells everyone', async () => {
    const me = t.accounts.moderator;
    const before = row(me.id).avatar_version;
    const res = await setAvatar('moderator');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const version = before + 1;
    const url = `/user_avatars/${me.id}.png?version=${version}`;
    expect(res.body).toEqual({ result: 'success', msg: '', avatar_url: url });
    expect(row(me.id)).toMatchObject({ avatar_source: 'U', avatar_version: version });

    const events = await watchers.take('realm_user');
    expect(receivers(events)).toEqual(everyone);
    expect(events.guest).toEqual([
      {
        id: expect.any(Number),
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: me.id,
          avatar_source: 'U',
          avatar_url: url,
          avatar_url_medium: `/user_avatars/${me.id}-medium.png?version=${version}`,
          avatar_version: version,
        },
      },
    ]);
    expect((await watchers.take('realm_bot')).admin).toEqual([]);

    const small = await fetchImage(url);
    expect(await imageInfo(small.bytes)).toEqual({
      format: 'png',
      width: 100,
      height: 100,
      pages: 1,
    });
    const medium = await fetchImage(`/user_avatars/${me.id}-medium.png?version=${version}`);
    expect(await imageInfo(medium.bytes)).toMatchObject({ width: 500, height: 500 });
    // The uploaded picture, not the generated one: its colour is the upload's.
    const { data } = await (await import('sharp'))
      .default(small.bytes)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([0x0f, 0x76, 0x6e]);

    const user = await t.as('member').get(`/users/${me.id}`);
    expect(user.body.user.avatar_url).toBe(url);
  });

  it('sends a bot owner a realm_bot update too', async () => {
    const bot = t.accounts.bot;
    expect((await setAvatar('bot')).status).toBe(200);
    const events = await watchers.take('realm_bot');
    expect(receivers(events)).toEqual(['admin', 'member', 'owner']);
    expect(events.member).toEqual([
      {
        id: expect.any(Number),
        type: 'realm_bot',
        op: 'update',
        bot: {
          user_id: bot.id,
          avatar_url: `/user_avatars/${bot.id}.png?version=${row(bot.id).avatar_version}`,
        },
      },
    ]);
  });

  it('wants exactly one file', async () => {
    const msg = 'You must upload exactly one avatar.';
    expectError(await setAvatar('member', {}), 400, 'BAD_REQUEST', msg);
    expectError(
      await setAvatar('member', { a: pictureFile(), b: pictureFile() }),
      400,
      'BAD_REQUEST',
      msg,
    );
  });

  it('refuses everyone but administrators while avatar changes are disabled', async () => {
    setRealm(t, { avatar_changes_disabled: true });
    const msg = 'Avatar changes are disabled in this organization.';
    expectError(await setAvatar('member'), 400, 'BAD_REQUEST', msg);
    expectError(await setAvatar('moderator'), 400, 'BAD_REQUEST', msg);
    expectError(await t.as('member').delete('/users/me/avatar'), 400, 'BAD_REQUEST', msg);
    expect((await setAvatar('admin')).status).toBe(200);
    expect((await setAvatar('owner')).status).toBe(200);
  });

  it('refuses large files, other formats and files that are not images', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    expectError(
      await setAvatar('member', { file: imageFile(big, 'big.png', 'image/png') }),
      400,
      'BAD_REQUEST',
      'Uploaded file is larger than the allowed limit of 5 MiB',
    );
    expectError(
      await setAvatar('member', { file: imageFile(picture, 'a.svg', 'image/svg+xml') }),
      400,
      'BAD_IMAGE',
      'Invalid image format',
    );
    expectError(
      await setAvatar('member', { file: imageFile(Buffer.from('hello'), 'a.png', 'image/png') }),
      400,
      'BAD_IMAGE',
      'Could not decode image; did you upload an image file?',
    );
    expectError(
      await setAvatar('member', { file: imageFile(hugeDimensionsPng(), 'bomb.png', 'image/png') }),
      400,
      'BAD_IMAGE',
      'Image size exceeds limit.',
    );
    expect(row(t.accounts.member.id).avatar_source).toBe('G');
    expect((await watchers.take('realm_user')).member).toEqual([]);
  });
});

describe('DELETE /users/me/avatar', () => {
  it('goes back to the generated avatar with a new version, and the old files go', async () => {
    const me = t.accounts.guest;
    expect((await setAvatar('guest')).status).toBe(200);
    const uploaded = row(me.id).avatar_version;
    await watchers.clear();
    const res = await t.as('guest').delete('/users/me/avatar');
    expect(res.status).toBe(200);
    expect(res.body.avatar_url).toBe(`/user_avatars/${me.id}.png?version=${uploaded + 1}`);
    expect(row(me.id)).toMatchObject({ avatar_source: 'G', avatar_version: uploaded + 1 });
    const events = await watchers.take('realm_user');
    expect(receivers(events)).toEqual(everyone);
    expect(events.owner![0].person).toEqual({
      user_id: me.id,
      avatar_source: 'G',
      avatar_url: res.body.avatar_url,
      avatar_url_medium: `/user_avatars/${me.id}-medium.png?version=${uploaded + 1}`,
      avatar_version: uploaded + 1,
    });
    // The upload's files are gone; the path now shows the generated picture.
    const { existsSync } = await import('node:fs');
    const { storedFilePath } = await import('../../server/core/file-store.js');
    expect(existsSync(storedFilePath(t.server.ctx, `avatars/${me.id}-${uploaded}.png`)!)).toBe(
      false,
    );
    expect((await t.anonymous().fetch(`/user_avatars/${me.id}.png`)).status).toBe(200);
  });
});
