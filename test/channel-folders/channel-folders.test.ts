/**
 * Channel folders (Zulip's channel_folders.py and test_channel_folders.py):
 * POST /channel_folders/create, GET and PATCH (reorder) /channel_folders,
 * PATCH /channel_folders/{id} (name, description, archiving), the
 * channel_folder events to everyone, POST /register's channel_folders, and
 * channels' folder_id (creating into a folder, moving between folders).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { type FixtureName, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
let counter = 0;
const everyone = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  for (const who of everyone) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const create = (who: FixtureName, params: Record<string, unknown>) =>
  t.as(who).post('/channel_folders/create', params);

async function folder(name = `Folder ${++counter}`, description = ''): Promise<number> {
  const res = await create('admin', { name, description });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.channel_folder_id;
}

async function registered(who: FixtureName = 'member') {
  return (await t.as(who).post('/register', { fetch_event_types: ['channel_folders'] })).body
    .channel_folders;
}

describe('POST /channel_folders/create', () => {
  it('creates a folder, tells everyone, and lists it', async () => {
    const res = await create('admin', {
      name: 'Frontend',
      description: 'Channels for **frontend**',
    });
    expect(res.body).toEqual({ result: 'success', msg: '', channel_folder_id: expect.any(Number) });
    const id = res.body.channel_folder_id;
    const expected = {
      id,
      name: 'Frontend',
      description: 'Channels for **frontend**',
      rendered_description: '<p>Channels for <strong>frontend</strong></p>',
      order: id,
      date_created: expect.any(Number),
      creator_id: t.accounts.admin.id,
      is_archived: false,
    };
    const events = await watchers.take('channel_folder');
    expect(receivers(events)).toEqual(everyone);
    expect(events.guest).toEqual([
      { id: expect.any(Number), type: 'channel_folder', op: 'add', channel_folder: expected },
    ]);
    const listed = (await t.as('guest').get('/channel_folders')).body.channel_folders;
    expect(listed).toContainEqual(expected);
    expect(await registered('guest')).toContainEqual(expected);
  });

  it('checks the name as Zulip does', async () => {
    await folder('Backend');
    expectError(
      await create('admin', { name: 'backend', description: '' }),
      400,
      'BAD_REQUEST',
      'Channel folder name already in use',
    );
    expectError(
      await create('admin', { name: '  ', description: '' }),
      400,
      'BAD_REQUEST',
      "Channel folder name can't be empty.",
    );
    expectError(
      await create('admin', { name: 'Bad\u0001name', description: '' }),
      400,
      'BAD_REQUEST',
      'Invalid character in channel folder name, at position 4.',
    );
    expectError(
      await create('admin', { name: 'x'.repeat(61), description: '' }),
      400,
      'BAD_REQUEST',
      'name is too long (limit: 60 characters)',
    );
    expectError(
      await create('admin', { name: 'Long', description: 'x'.repeat(1025) }),
      400,
      'BAD_REQUEST',
      'description is too long (limit: 1024 characters)',
    );
  });

  it.each(['moderator', 'member', 'guest', 'bot'] as const)('is refused to %s', async (who) => {
    expectError(
      await create(who, { name: `Nope ${++counter}`, description: '' }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });
});

describe('PATCH /channel_folders/{id}', () => {
  it('renames, describes and archives, one event per change', async () => {
    const id = await folder();
    await watchers.clear();
    const res = await t.as('admin').patch(`/channel_folders/${id}`, {
      name: `Renamed ${counter}`,
      description: 'Now *described*',
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const events = await watchers.take('channel_folder');
    expect(receivers(events)).toEqual(everyone);
    expect(events.member!.map((e) => e.data)).toEqual([
      { name: `Renamed ${counter}` },
      { description: 'Now *described*', rendered_description: '<p>Now <em>described</em></p>' },
    ]);
    expect(
      (await t.as('owner').patch(`/channel_folders/${id}`, { is_archived: true })).status,
    ).toBe(200);
    expect((await watchers.take('channel_folder')).bot).toEqual([
      {
        id: expect.any(Number),
        type: 'channel_folder',
        op: 'update',
        channel_folder_id: id,
        data: { is_archived: true },
      },
    ]);
    const active = (await t.as('member').get('/channel_folders')).body.channel_folders;
    expect(active.some((f: { id: number }) => f.id === id)).toBe(false);
    const all = (await t.as('member').get('/channel_folders', { include_archived: true })).body
      .channel_folders;
    expect(all.find((f: { id: number }) => f.id === id).is_archived).toBe(true);
    // An archived folder's name can be taken again.
    await folder(`Renamed ${counter}`);
  });

  it('refuses to archive a folder with channels in it', async () => {
    const id = await folder();
    const channel = createChannel(t, {
      name: `in folder ${counter}`,
      subscribers: [t.accounts.owner.id],
    });
    expect((await t.as('owner').patch(`/streams/${channel}`, { folder_id: id })).status).toBe(200);
    expectError(
      await t.as('admin').patch(`/channel_folders/${id}`, { is_archived: true }),
      400,
      'BAD_REQUEST',
      'You need to remove all the channels from this folder to archive it.',
    );
  });

  it('is quiet when nothing changes, and knows its folders', async () => {
    const name = `Same ${++counter}`;
    const id = await folder(name);
    await watchers.clear();
    expect(
      (await t.as('admin').patch(`/channel_folders/${id}`, { name, is_archived: false })).status,
    ).toBe(200);
    expect(receivers(await watchers.take())).toEqual([]);
    expectError(
      await t.as('admin').patch('/channel_folders/987654', { name: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
    expectError(
      await t.as('member').patch(`/channel_folders/${id}`, { name: 'x' }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });
});

describe('PATCH /channel_folders (reorder)', () => {
  it('takes an order naming every folder and tells everyone', async () => {
    await folder();
    const all = (await t.as('admin').get('/channel_folders', { include_archived: true })).body
      .channel_folders;
    const order = all.map((f: { id: number }) => f.id).reverse();
    await watchers.clear();
    expect((await t.as('admin').patch('/channel_folders', { order })).status).toBe(200);
    expect((await watchers.take('channel_folder')).guest).toEqual([
      { id: expect.any(Number), type: 'channel_folder', op: 'reorder', order },
    ]);
    const after = (await registered()).map((f: { id: number }) => f.id);
    expect(after).toEqual(order);
    expectError(
      await t.as('admin').patch('/channel_folders', { order: order.slice(1) }),
      400,
      'BAD_REQUEST',
      'Invalid order mapping.',
    );
    expectError(
      await t.as('moderator').patch('/channel_folders', { order }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });
});

describe('channels in folders', () => {
  it('a channel is created into a folder and moved out of it; subscribers hear folder_id', async () => {
    const id = await folder();
    const res = await t.as('admin').post('/channels/create', {
      name: `foldered ${counter}`,
      subscribers: [t.accounts.member.id],
      folder_id: id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const streamId = res.body.id;
    expect((await t.as('member').get(`/streams/${streamId}`)).body.stream.folder_id).toBe(id);
    await watchers.clear();
    expect((await t.as('admin').patch(`/streams/${streamId}`, { folder_id: null })).status).toBe(
      200,
    );
    const events = await watchers.take('stream');
    expect(events.member).toEqual([
      expect.objectContaining({
        op: 'update',
        stream_id: streamId,
        property: 'folder_id',
        value: null,
      }),
    ]);
    expect((await t.as('member').get(`/streams/${streamId}`)).body.stream.folder_id).toBeNull();
    expectError(
      await t.as('admin').patch(`/streams/${streamId}`, { folder_id: 987654 }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
    expectError(
      await t.as('admin').post('/channels/create', {
        name: `bad folder ${counter}`,
        subscribers: [],
        folder_id: 987654,
      }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
  });
});
