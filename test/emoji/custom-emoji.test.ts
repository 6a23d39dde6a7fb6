/**
 * Custom emoji: GET /realm/emoji, POST and DELETE /realm/emoji/{name}, the
 * realm_emoji events and register state, the served images, and custom emoji
 * in Markdown, reactions and user statuses.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import type { Account, FixtureName, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';
import { setRealm } from '../messages/send-support.js';
import { animatedGif, hugeDimensionsPng, imageFile, imageInfo, pngImage } from './images.js';

let t: TestServer;
let watchers: Watchers;
let png: Buffer;
let channel: number;
const everyone = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];
let counter = 0;

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  for (const who of everyone) await watchers.add(who);
  png = await pngImage(100, 50);
  const a = t.accounts;
  channel = createChannel(t, { name: 'emoji talk', subscribers: [a.owner.id, a.member.id] });
});
afterAll(() => t.close());
beforeEach(async () => {
  setRealm(t, { can_add_custom_emoji_group: 'role:members' });
  await watchers.clear();
});

type Who = FixtureName | Account;

const upload = (who: Who, name: string, files: Record<string, File> = { f1: pngFile() }) =>
  t.as(who).post(`/realm/emoji/${name}`, files, { encoding: 'multipart' });
const remove = (who: Who, name: string) => t.as(who).delete(`/realm/emoji/${name}`);
const list = async (who: Who = 'member') => (await t.as(who).get('/realm/emoji')).body.emoji;
const pngFile = () => imageFile(png, 'img.png', 'image/png');

interface EmojiInfo {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

/** The active emoji called `name`, from GET /realm/emoji. */
async function named(name: string): Promise<EmojiInfo> {
  const all = Object.values(await list()) as EmojiInfo[];
  const found = all.find((e) => e.name === name && !e.deactivated);
  if (!found) throw new Error(`no active emoji ${name}`);
  return found;
}

/** A fresh emoji name, so tests do not depend on each other. */
function freshName(): string {
  counter++;
  return `emoji_${counter}`;
}

async function uploaded(who: Who = 'member', name = freshName()): Promise<EmojiInfo> {
  const res = await upload(who, name);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return named(name);
}

describe('POST /realm/emoji/{emoji_name}', () => {
  it('stores a 64x64 image, lists it and tells every active user the whole dict', async () => {
    const name = freshName();
    const before = await list();
    const res = await upload('member', name);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const after = await list();
    const added = await named(name);
    expect(added).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name,
      source_url: `/user_avatars/1/emoji/images/${added.id}.png`,
      still_url: null,
      deactivated: false,
      author_id: t.accounts.member.id,
    });
    expect(Object.keys(after)).toEqual([...Object.keys(before), added.id]);

    const events = await watchers.take('realm_emoji');
    expect(receivers(events)).toEqual(everyone);
    for (const who of everyone) {
      expect(events[who]).toEqual([
        { id: expect.any(Number), type: 'realm_emoji', op: 'update', realm_emoji: after },
      ]);
    }

    const file = await t.anonymous().fetch(added.source_url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await imageInfo(await file.arrayBuffer())).toEqual({
      format: 'png',
      width: 64,
      height: 64,
      pages: 1,
    });
  });

  it('keeps an animated GIF animated and adds a still PNG of the first frame', async () => {
    const name = freshName();
    const gif = await animatedGif(80, 40);
    const res = await upload('member', name, { file: imageFile(gif, 'party.gif', 'image/gif') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entry = await named(name);
    expect(entry.source_url).toBe(`/user_avatars/1/emoji/images/${entry.id}.gif`);
    expect(entry.still_url).toBe(`/user_avatars/1/emoji/images/still/${entry.id}.png`);

    const animated = await t.anonymous().fetch(entry.source_url);
    expect(animated.headers.get('content-type')).toBe('image/gif');
    expect(await imageInfo(await animated.arrayBuffer())).toEqual({
      format: 'gif',
      width: 64,
      height: 64,
      pages: 3,
    });
    const still = await t.anonymous().fetch(entry.still_url!);
    expect(still.status).toBe(200);
    expect(still.headers.get('content-type')).toBe('image/png');
    expect(await imageInfo(await still.arrayBuffer())).toEqual({
      format: 'png',
      width: 64,
      height: 64,
      pages: 1,
    });
  });

  it('keeps an animated WebP animated', async () => {
    const name = freshName();
    const webp = await animatedGif(32, 32, ['#f00', '#00f'], 'webp');
    const res = await upload('member', name, { file: imageFile(webp, 'a.webp', 'image/webp') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entry = await named(name);
    expect(entry.source_url).toBe(`/user_avatars/1/emoji/images/${entry.id}.webp`);
    expect(entry.still_url).toBe(`/user_avatars/1/emoji/images/still/${entry.id}.png`);
    const file = await t.anonymous().fetch(entry.source_url);
    expect(await imageInfo(await file.arrayBuffer())).toEqual({
      format: 'webp',
      width: 64,
      height: 64,
      pages: 2,
    });
  });

  it('keeps only the first frame when an animation is sent as a format that cannot animate', async () => {
    const name = freshName();
    const gif = await animatedGif(64, 64);
    const res = await upload('member', name, { file: imageFile(gif, 'x.png', 'image/png') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entry = await named(name);
    expect(entry.still_url).toBeNull();
    const file = await t.anonymous().fetch(entry.source_url);
    expect(await imageInfo(await file.arrayBuffer())).toMatchObject({ format: 'png', pages: 1 });
  });

  it.each([
    ['image/jpeg', 'jpg', 'jpeg'],
    ['image/webp', 'webp', 'webp'],
  ])('stores %s uploads as .%s', async (type, extension, format) => {
    const name = freshName();
    const res = await upload('member', name, { file: imageFile(png, 'a', type) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entry = await named(name);
    expect(entry.source_url).toBe(`/user_avatars/1/emoji/images/${entry.id}.${extension}`);
    const file = await t.anonymous().fetch(entry.source_url);
    expect(file.headers.get('content-type')).toBe(type);
    expect((await imageInfo(await file.arrayBuffer())).format).toBe(format);
  });

  it('turns spaces into underscores and trims the name', async () => {
    const res = await upload('member', '%20my%20party%20');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await named('my_party')).name).toBe('my_party');
  });

  it.each([
    [
      'my_em*oji',
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    ],
    [
      'my_EMoji',
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    ],
    [
      'my/emoji/with/forward/slash',
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    ],
    [
      'caf%C3%A9',
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    ],
    [
      'my.emoji',
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    ],
    ['my_emoji_', 'Emoji names must end with either a letter or digit.'],
    ['my-emoji-', 'Emoji names must end with either a letter or digit.'],
    ['%20', 'Emoji name is missing'],
    ['%20%09', 'Emoji name is missing'],
  ])('refuses the name %j', async (name, msg) => {
    expectError(await upload('admin', name), 400, 'BAD_REQUEST', msg);
  });

  it('refuses guests and bots before looking at the name', async () => {
    expectError(await upload('guest', 'Bad*'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
    expectError(
      await upload('bot', 'Bad*'),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });

  it('follows can_add_custom_emoji_group', async () => {
    const refused = async (who: Who) =>
      expectError(await upload(who, freshName()), 400, 'BAD_REQUEST', 'Insufficient permission');
    const allowed = async (who: Who) => expect((await upload(who, freshName())).status).toBe(200);

    setRealm(t, { can_add_custom_emoji_group: 'role:administrators' });
    await refused('member');
    await refused('moderator');
    await allowed('admin');
    await allowed('owner');

    setRealm(t, { can_add_custom_emoji_group: 'role:moderators' });
    await refused('member');
    await allowed('moderator');

    setRealm(t, { can_add_custom_emoji_group: 'role:nobody' });
    await refused('owner');

    const lee = await quickMember(t, 'Lee Grouped');
    const group = await t.as('owner').post('/user_groups/create', {
      name: `emoji makers ${counter}`,
      description: 'may add emoji',
      members: [lee.id],
    });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    setRealm(t, { can_add_custom_emoji_group: group.body.group_id });
    await allowed(lee);
    await refused('member');
    await refused('admin');

    const administrators = t.server.ctx.db
      .prepare("SELECT id FROM user_groups WHERE name = 'role:administrators'")
      .get() as { id: number };
    setRealm(t, {
      can_add_custom_emoji_group: {
        direct_members: [t.accounts.member.id],
        direct_subgroups: [administrators.id],
      },
    });
    await allowed('member');
    await allowed('owner');
    await refused('moderator');
    await refused(lee);
    // The group setting never opens the endpoint to guests.
    setRealm(t, { can_add_custom_emoji_group: 'role:everyone' });
    expectError(
      await upload('guest', freshName()),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
  });

  it('refuses a name an active emoji has, and takes it again once deactivated', async () => {
    const first = await uploaded('member');
    expectError(
      await upload('admin', first.name),
      400,
      'BAD_REQUEST',
      'A custom emoji with this name already exists.',
    );
    expect((await remove('member', first.name)).status).toBe(200);
    const second = await uploaded('admin', first.name);
    expect(second.id).not.toBe(first.id);
    const all = await list();
    expect(all[first.id]).toMatchObject({ name: first.name, deactivated: true });
    expect(all[second.id]).toMatchObject({ name: first.name, deactivated: false });
  });

  it('lets only one of two simultaneous uploads take a name', async () => {
    const name = freshName();
    const answers = await Promise.all([upload('member', name), upload('admin', name)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
    const refused = answers.find((res) => res.status === 400)!;
    expect(refused.body.msg).toBe('A custom emoji with this name already exists.');
    const all = Object.values(await list()) as EmojiInfo[];
    expect(all.filter((e) => e.name === name)).toHaveLength(1);
  });

  it('wants exactly one file', async () => {
    const msg = 'You must upload exactly one file.';
    expectError(await upload('member', freshName(), {}), 400, 'BAD_REQUEST', msg);
    expectError(
      await upload('member', freshName(), { f1: pngFile(), f2: pngFile() }),
      400,
      'BAD_REQUEST',
      msg,
    );
    // A form-encoded request carries no file at all.
    expectError(await t.as('member').post(`/realm/emoji/${freshName()}`), 400, 'BAD_REQUEST', msg);
  });

  it('lets only administrators override a default emoji', async () => {
    expectError(
      await upload('moderator', 'laughing'),
      400,
      'BAD_REQUEST',
      'Only administrators can override default emoji.',
    );
    const res = await upload('admin', 'smile');
    expect(res.status).toBe(200);
    // :zulip: is Zulip's own, not a Unicode emoji: anyone allowed may take the name.
    expect((await upload('member', 'zulip')).status).toBe(200);
  });

  it('refuses files over MAX_EMOJI_FILE_SIZE_MIB', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    png.copy(big);
    expectError(
      await upload('member', freshName(), { f: imageFile(big, 'big.png', 'image/png') }),
      400,
      'BAD_REQUEST',
      'Uploaded file is larger than the allowed limit of 5 MiB',
    );
  });

  it('refuses formats Zulip does not serve inline, and files that are not images', async () => {
    expectError(
      await upload('member', freshName(), { f: imageFile(png, 'a.tif', 'image/tiff') }),
      400,
      'BAD_IMAGE',
      'Invalid image format',
    );
    expectError(
      await upload('member', freshName(), { f: imageFile(png, 'a.svg', 'image/svg+xml') }),
      400,
      'BAD_IMAGE',
      'Invalid image format',
    );
    expectError(
      await upload('member', freshName(), {
        f: imageFile(Buffer.from('not an image at all'), 'a.png', 'image/png'),
      }),
      400,
      'BAD_IMAGE',
      'Could not decode image; did you upload an image file?',
    );
    expectError(
      await upload('member', freshName(), {
        f: imageFile(hugeDimensionsPng(), 'bomb.png', 'image/png'),
      }),
      400,
      'BAD_IMAGE',
      'Image size exceeds limit.',
    );
    expect(await watchers.take('realm_emoji')).toEqual(
      Object.fromEntries(everyone.map((who) => [who, []])),
    );
  });
});

describe('DELETE /realm/emoji/{emoji_name}', () => {
  it('deactivates (the image stays served) and tells everyone', async () => {
    const emoji = await uploaded('member');
    await watchers.clear();
    const res = await remove('member', emoji.name);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const after = await list();
    expect(after[emoji.id]).toEqual({ ...emoji, deactivated: true });
    const events = await watchers.take('realm_emoji');
    expect(receivers(events)).toEqual(everyone);
    expect(events.guest![0].realm_emoji).toEqual(after);
    expect((await t.anonymous().fetch(emoji.source_url)).status).toBe(200);
  });

  it('answers 404 for a name no active emoji has', async () => {
    expectError(
      await remove('admin', 'invalid_emoji'),
      404,
      'BAD_REQUEST',
      "Emoji 'invalid_emoji' does not exist",
    );
    const emoji = await uploaded('member');
    await remove('member', emoji.name);
    expectError(
      await remove('admin', emoji.name),
      404,
      'BAD_REQUEST',
      `Emoji '${emoji.name}' does not exist`,
    );
  });

  it('lets administrators remove any emoji and others only their own', async () => {
    const msg = 'Must be an organization administrator or emoji author';
    const mine = await uploaded('member');
    expectError(await remove('moderator', mine.name), 400, 'BAD_REQUEST', msg);
    expectError(await remove('guest', mine.name), 400, 'BAD_REQUEST', msg);
    expectError(await remove('bot', mine.name), 400, 'BAD_REQUEST', msg);
    expect((await remove('admin', mine.name)).status).toBe(200);
    const again = await uploaded('member');
    expect((await remove('owner', again.name)).status).toBe(200);
    const own = await uploaded('moderator');
    expect((await remove('moderator', own.name)).status).toBe(200);
  });
});

describe('register state', () => {
  it('has every custom emoji by id, deactivated ones too', async () => {
    const state = async () =>
      (await t.as('guest').post('/register', { fetch_event_types: ['realm_emoji'] })).body
        .realm_emoji;
    const before = await state();
    expect(before).toEqual(await list('guest'));
    const emoji = await uploaded('member');
    const after = await state();
    expect(after).toEqual({ ...before, [emoji.id]: { ...emoji, deactivated: false } });
    await remove('member', emoji.name);
    expect((await state())[emoji.id].deactivated).toBe(true);
  });
});

describe('served emoji files', () => {
  it('answer 404 for unknown names, other realms and path tricks', async () => {
    const emoji = await uploaded('member');
    const file = emoji.source_url.split('/').pop()!;
    const id = emoji.id;
    for (const path of [
      '/user_avatars/1/emoji/images/999999.png',
      `/user_avatars/2/emoji/images/${file}`,
      `/user_avatars/1/emoji/images/${id}.gif`,
      `/user_avatars/1/emoji/images/still/${id}.png`,
      '/user_avatars/1/emoji/images/..%2F..%2F..%2Fhearth.db',
      '/user_avatars/1/emoji/images/%2E%2E',
      `/user_avatars/1/emoji/images/${file}%00`,
      '/user_avatars/1/emoji/images/still/..%2F1.png',
    ]) {
      const res = await t.anonymous().fetch(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
  });

  it('need no credentials and send nosniff', async () => {
    const emoji = await uploaded('member');
    const res = await t.anonymous().fetch(emoji.source_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('custom emoji in use', () => {
  it('render in Markdown with the served URL, and as text once deactivated', async () => {
    const emoji = await uploaded('member');
    const render = async () =>
      (await t.as('member').post('/messages/render', { content: `:${emoji.name}:` })).body.rendered;
    expect(await render()).toBe(
      `<p><img alt=":${emoji.name}:" class="emoji" src="${emoji.source_url}" title="${emoji.name.replace(/_/g, ' ')}"></p>`,
    );
    expect((await t.anonymous().fetch(emoji.source_url)).status).toBe(200);
    await remove('member', emoji.name);
    expect(await render()).toBe(`<p>:${emoji.name}:</p>`);
  });

  it('render animated ones with their served still image', async () => {
    const name = freshName();
    const gif = await animatedGif(64, 64);
    expect((await upload('member', name, { f: imageFile(gif, 'a.gif', 'image/gif') })).status).toBe(
      200,
    );
    const emoji = await named(name);
    const rendered = (await t.as('member').post('/messages/render', { content: `:${name}:` })).body
      .rendered as string;
    expect(rendered).toContain(`src="${emoji.still_url}"`);
    expect((await t.anonymous().fetch(emoji.still_url!)).status).toBe(200);
  });

  it('react by name or by id, and a deactivated one is refused for new reactions', async () => {
    const emoji = await uploaded('member');
    const messageId = await sendToChannel(t, 'member', channel, 'reactions');
    const byName = await t
      .as('member')
      .post(`/messages/${messageId}/reactions`, { emoji_name: emoji.name });
    expect(byName.status, JSON.stringify(byName.body)).toBe(200);
    const byCode = await t.as('owner').post(`/messages/${messageId}/reactions`, {
      emoji_name: emoji.name,
      emoji_code: emoji.id,
      reaction_type: 'realm_emoji',
    });
    expect(byCode.status, JSON.stringify(byCode.body)).toBe(200);
    const message = await t.as('member').get(`/messages/${messageId}`);
    expect(
      message.body.message.reactions.map(
        (r: { emoji_name: string; emoji_code: string; reaction_type: string }) => [
          r.emoji_name,
          r.emoji_code,
          r.reaction_type,
        ],
      ),
    ).toEqual([
      [emoji.name, emoji.id, 'realm_emoji'],
      [emoji.name, emoji.id, 'realm_emoji'],
    ]);

    await remove('member', emoji.name);
    const other = await sendToChannel(t, 'member', channel, 'reactions');
    expectError(
      await t.as('member').post(`/messages/${other}/reactions`, {
        emoji_name: emoji.name,
        emoji_code: emoji.id,
        reaction_type: 'realm_emoji',
      }),
      400,
      'BAD_REQUEST',
      'This custom emoji has been deactivated.',
    );
    expectError(
      await t.as('member').post(`/messages/${other}/reactions`, { emoji_name: emoji.name }),
      400,
      'BAD_REQUEST',
      `Emoji '${emoji.name}' does not exist`,
    );
    // Existing reactions stay, and can still be removed.
    const removed = await t.as('owner').delete(`/messages/${messageId}/reactions`, {
      emoji_name: emoji.name,
      emoji_code: emoji.id,
      reaction_type: 'realm_emoji',
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
  });

  it('can be a user status emoji', async () => {
    const emoji = await uploaded('member');
    const res = await t.as('member').post('/users/me/status', {
      status_text: 'partying',
      emoji_name: emoji.name,
      emoji_code: emoji.id,
      reaction_type: 'realm_emoji',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const status = await t.as('owner').get(`/users/${t.accounts.member.id}/status`);
    expect(status.body.status).toMatchObject({
      emoji_name: emoji.name,
      emoji_code: emoji.id,
      reaction_type: 'realm_emoji',
    });
    await remove('member', emoji.name);
    expectError(
      await t.as('member').post('/users/me/status', {
        emoji_name: emoji.name,
        emoji_code: emoji.id,
        reaction_type: 'realm_emoji',
      }),
      400,
      'BAD_REQUEST',
      'This custom emoji has been deactivated.',
    );
  });
});
