/** emoji.list / emoji.add / emoji.deactivate over /trpc: the REST API's rules, as the admin UI calls them. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';
import { type AdminClient, bearer, failure, trpcClient } from './client.js';

const TOKEN = 'emoji-admin-token-0123456789abcdef';

let t: TestServer;
let admin: AdminClient;
let png: string;

beforeAll(async () => {
  t = await startTestServer({ adminToken: TOKEN });
  admin = trpcClient(t.url, bearer(TOKEN));
  png = (
    await sharp({ create: { width: 100, height: 50, channels: 4, background: '#3a7' } })
      .png()
      .toBuffer()
  ).toString('base64');
});
afterAll(() => t?.close());

const as = (who: 'member' | 'guest') =>
  trpcClient(t.url, basicAuth(t.accounts[who].email, t.accounts[who].apiKey));
const restEmoji = async () =>
  Object.values((await t.as('member').get('/realm/emoji')).body.emoji) as {
    name: string;
    deactivated: boolean;
    author_id: number;
  }[];

describe('emoji.add', () => {
  it('adds as the owner what GET /realm/emoji lists; emoji.list inlines the 64x64 image', async () => {
    const image = png;
    expect(
      await admin.emoji.add.mutate({ name: 'green', contentType: 'image/png', image }),
    ).toEqual({});
    expect(await restEmoji()).toEqual([
      expect.objectContaining({
        name: 'green',
        deactivated: false,
        author_id: t.accounts.owner.id,
      }),
    ]);
    const [listed] = await admin.emoji.list.query();
    expect(listed).toMatchObject({
      name: 'green',
      deactivated: false,
      authorId: t.accounts.owner.id,
    });
    const data = Buffer.from(
      listed!.imageDataUrl!.replace(/^data:image\/png;base64,/, ''),
      'base64',
    );
    expect(await sharp(data).metadata()).toMatchObject({ width: 64, height: 64 });
  });

  it('refuses with the REST API’s messages, each beside its field', async () => {
    const taken = await failure(
      admin.emoji.add.mutate({ name: 'green', contentType: 'image/png', image: png }),
    );
    expect(taken).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'A custom emoji with this name already exists.',
      field: 'name',
    });
    const notImage = await failure(
      admin.emoji.add.mutate({
        name: 'text',
        contentType: 'text/plain',
        image: Buffer.from('hi').toString('base64'),
      }),
    );
    expect(notImage).toMatchObject({ code: 'BAD_REQUEST', field: 'image' });
    const notBase64 = await failure(
      admin.emoji.add.mutate({ name: 'x', contentType: 'image/png', image: '<svg>' }),
    );
    expect(notBase64).toMatchObject({ code: 'BAD_REQUEST', field: 'image', zulip: null });
    expect((await restEmoji()).map((e) => e.name)).toEqual(['green']);
  });

  it('follows the REST API’s permissions for API-key callers', async () => {
    const guest = await failure(
      as('guest').emoji.add.mutate({ name: 'guesty', contentType: 'image/png', image: png }),
    );
    expect(guest).toMatchObject({ code: 'BAD_REQUEST', message: 'Not allowed for guest users' });
    await as('member').emoji.add.mutate({
      name: 'members_own',
      contentType: 'image/png',
      image: png,
    });
    expect((await restEmoji()).map((e) => e.name).sort()).toEqual(['green', 'members_own']);
  });
});

describe('emoji.deactivate', () => {
  it('deactivates for everyone; an unknown name is NOT_FOUND', async () => {
    const other = await failure(as('member').emoji.deactivate.mutate({ name: 'green' }));
    expect(other).toMatchObject({
      message: 'Must be an organization administrator or emoji author',
    });
    expect(await admin.emoji.deactivate.mutate({ name: 'green' })).toEqual({});
    expect((await restEmoji()).find((e) => e.name === 'green')?.deactivated).toBe(true);
    expect(await failure(admin.emoji.deactivate.mutate({ name: 'green' }))).toMatchObject({
      code: 'NOT_FOUND',
      message: "Emoji 'green' does not exist",
    });
  });
});
