import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let gone: Account;

beforeAll(async () => {
  t = await startTestServer();
  gone = await t.createMember('Gone Away');
  expect((await t.as('admin').delete(`/users/${gone.id}`)).status).toBe(200);
});
afterAll(() => t.close());

const ok = { result: 'success', msg: '' };
const err = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

async function create(params: Record<string, unknown>): Promise<number> {
  const res = await t.as('admin').post('/realm/profile_fields', params);
  expect(res.body, JSON.stringify(res.body)).toMatchObject(ok);
  return res.body.id;
}
const fields = async () => (await t.as('member').get('/realm/profile_fields')).body.custom_fields;
const remove = (id: number) => t.as('admin').delete(`/realm/profile_fields/${id}`);

describe('creating fields', () => {
  it('creates a field with defaults and lists it for everyone', async () => {
    const id = await create({ name: '  Phone  ', field_type: 1 });
    const res = await t.as('guest').get('/realm/profile_fields');
    expect(res.body.custom_fields).toContainEqual({
      id,
      name: 'Phone',
      type: 1,
      hint: '',
      field_data: '',
      order: id,
      required: false,
      editable_by_user: true,
    });
    await remove(id);
  });

  it('stores select options and flags', async () => {
    const data = { a: { text: 'Alpha', order: '1' }, b: { text: 'Beta', order: '2' } };
    const id = await create({
      name: 'Team',
      hint: 'Your team',
      field_type: 3,
      field_data: data,
      required: true,
      editable_by_user: false,
      display_in_profile_summary: true,
    });
    const field = (await fields()).find((f: { id: number }) => f.id === id);
    expect(field).toEqual({
      id,
      name: 'Team',
      type: 3,
      hint: 'Your team',
      field_data: JSON.stringify(data),
      order: id,
      required: true,
      editable_by_user: false,
      display_in_profile_summary: true,
    });
    await remove(id);
  });

  it('external accounts: built-in subtypes take their label; custom needs a pattern', async () => {
    const gh = await create({ field_type: 7, field_data: { subtype: 'github' } });
    const field = (await fields()).find((f: { id: number }) => f.id === gh);
    expect(field).toMatchObject({ name: 'GitHub username', field_data: '{"subtype":"github"}' });
    const custom = await create({
      name: 'Forge',
      field_type: 7,
      field_data: { subtype: 'custom', url_pattern: 'https://forge.example/%(username)s' },
      use_for_user_matching: true,
    });
    expect((await fields()).find((f: { id: number }) => f.id === custom)).toMatchObject({
      use_for_user_matching: true,
    });
    await remove(gh);
    await remove(custom);
  });

  it.each([
    [{ field_type: 1 }, 'Label cannot be blank.'],
    [{ name: '   ', field_type: 1 }, 'Label cannot be blank.'],
    [{ name: 'x'.repeat(41), field_type: 1 }, 'name is too long (limit: 40 characters)'],
    [
      { name: 'ok', hint: 'h'.repeat(81), field_type: 1 },
      'hint is too long (limit: 80 characters)',
    ],
    [{ name: 'ok', field_type: 0 }, 'Invalid field type.'],
    [{ name: 'ok', field_type: 9 }, 'Invalid field type.'],
    [{ name: 'ok', field_type: 3 }, 'Field must have at least one choice.'],
    [{ name: 'ok', field_type: 3, field_data: [] }, 'field_data is not a dict'],
    [
      { name: 'ok', field_type: 3, field_data: { a: 1 } },
      'field_data value is not an allowed_type',
    ],
    [
      { name: 'ok', field_type: 3, field_data: { ' ': { text: 'A', order: '1' } } },
      "'value' cannot be blank.",
    ],
    [
      { name: 'ok', field_type: 3, field_data: { a: { order: '1' } } },
      'text key is missing from field_data',
    ],
    [
      { name: 'ok', field_type: 3, field_data: { a: { text: '', order: '1' } } },
      'field_data["text"] cannot be blank.',
    ],
    [
      { name: 'ok', field_type: 3, field_data: { a: { text: 'A', order: '1', x: 'y' } } },
      'Unexpected arguments: x',
    ],
    [
      {
        name: 'ok',
        field_type: 3,
        field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } },
      },
      'Field must not have duplicate choices.',
    ],
    [{ name: 'ok', field_type: 7, field_data: {} }, 'subtype key is missing from field_data'],
    [
      { name: 'ok', field_type: 7, field_data: { subtype: 'myspace' } },
      'Invalid external account type',
    ],
    [
      { name: 'ok', field_type: 7, field_data: { subtype: 'custom' } },
      'Custom external account must define URL pattern',
    ],
    [
      {
        name: 'ok',
        field_type: 7,
        field_data: { subtype: 'custom', url_pattern: 'https://x.example/' },
      },
      'Malformed URL pattern.',
    ],
    [
      {
        name: 'ok',
        field_type: 7,
        field_data: { subtype: 'custom', url_pattern: 'nope/%(username)s' },
      },
      'field_data["url_pattern"] is not a URL',
    ],
    [
      { name: 'ok', field_type: 2, display_in_profile_summary: true },
      'Field type not supported for display in profile summary.',
    ],
    [
      { name: 'ok', field_type: 6, display_in_profile_summary: true },
      'Field type not supported for display in profile summary.',
    ],
    [
      { name: 'ok', field_type: 2, use_for_user_matching: true },
      'Field type not supported for user matching.',
    ],
    [
      { name: 'ok', field_type: 5, use_for_user_matching: true },
      'Field type not supported for user matching.',
    ],
  ])('refuses %j', async (params, msg) => {
    const res = await t.as('admin').post('/realm/profile_fields', params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err(msg));
  });

  it('field_type is required', async () => {
    const res = await t.as('admin').post('/realm/profile_fields', { name: 'x' });
    expect(res.body).toEqual({
      ...err("Missing 'field_type' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'field_type',
    });
  });

  it('names are unique', async () => {
    const id = await create({ name: 'Unique', field_type: 1 });
    const res = await t
      .as('admin')
      .post('/realm/profile_fields', { name: 'Unique', field_type: 2 });
    expect(res.body).toEqual(err('A field with that label already exists.'));
    await remove(id);
  });

  it('at most 2 fields in the profile summary, on create and update', async () => {
    const a = await create({ name: 'S1', field_type: 1, display_in_profile_summary: true });
    const b = await create({ name: 'S2', field_type: 1, display_in_profile_summary: true });
    const limit = err('Only 2 custom profile fields can be displayed in the profile summary.');
    const third = await t.as('admin').post('/realm/profile_fields', {
      name: 'S3',
      field_type: 1,
      display_in_profile_summary: true,
    });
    expect(third.body).toEqual(limit);
    const c = await create({ name: 'S3', field_type: 1 });
    const upd = await t
      .as('admin')
      .patch(`/realm/profile_fields/${c}`, { display_in_profile_summary: true });
    expect(upd.body).toEqual(limit);
    // A field already in the summary may be saved as such again.
    const same = await t
      .as('admin')
      .patch(`/realm/profile_fields/${a}`, { display_in_profile_summary: true });
    expect(same.body).toEqual(ok);
    for (const id of [a, b, c]) await remove(id);
  });
});

describe('updating, deleting and reordering', () => {
  it('updates what is given and keeps the rest', async () => {
    const id = await create({ name: 'Desk', hint: 'where', field_type: 1 });
    expect(
      (await t.as('admin').patch(`/realm/profile_fields/${id}`, { name: 'Office', required: true }))
        .body,
    ).toEqual(ok);
    expect((await fields()).find((f: { id: number }) => f.id === id)).toMatchObject({
      name: 'Office',
      hint: 'where',
      required: true,
      editable_by_user: true,
    });
    const blank = await t.as('admin').patch(`/realm/profile_fields/${id}`, { name: ' ' });
    expect(blank.body).toEqual(err('Label cannot be blank.'));
    const other = await create({ name: 'Other', field_type: 1 });
    const dup = await t.as('admin').patch(`/realm/profile_fields/${id}`, { name: 'Other' });
    expect(dup.body).toEqual(err('A field with that label already exists.'));
    const matching = await t
      .as('admin')
      .patch(`/realm/profile_fields/${id}`, { use_for_user_matching: true });
    expect(matching.body).toEqual(ok);
    await remove(id);
    await remove(other);
  });

  it('unknown field ids', async () => {
    expect((await t.as('admin').patch('/realm/profile_fields/9999', { name: 'x' })).body).toEqual(
      err('Field id 9999 not found.'),
    );
    expect((await remove(9999)).body).toEqual(err('Field id 9999 not found.'));
  });

  it('default external accounts only change their summary flag', async () => {
    const id = await create({ field_type: 7, field_data: { subtype: 'twitter' } });
    const res = await t.as('admin').patch(`/realm/profile_fields/${id}`, { name: 'X' });
    expect(res.body).toEqual(err('Default custom field cannot be updated.'));
    expect(
      (
        await t
          .as('admin')
          .patch(`/realm/profile_fields/${id}`, { display_in_profile_summary: true })
      ).body,
    ).toEqual(ok);
    await remove(id);
  });

  it('reorders by the given list and refuses a list missing a field', async () => {
    const a = await create({ name: 'R1', field_type: 1 });
    const b = await create({ name: 'R2', field_type: 1 });
    expect((await t.as('admin').patch('/realm/profile_fields', { order: [b, a] })).body).toEqual(
      ok,
    );
    const list = await fields();
    expect(list.map((f: { id: number; order: number }) => [f.id, f.order])).toEqual([
      [b, 0],
      [a, 1],
    ]);
    expect((await t.as('admin').patch('/realm/profile_fields', { order: [a] })).body).toEqual(
      err('Invalid order mapping.'),
    );
    await remove(a);
    await remove(b);
  });
});

describe('who may manage fields', () => {
  it.each(['member', 'moderator', 'guest', 'bot'] as const)('%s may not', async (who) => {
    const denied = err('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    const id = await create({ name: `Role ${who}`, field_type: 1 });
    const c = t.as(who);
    expect((await c.post('/realm/profile_fields', { name: 'n', field_type: 1 })).body).toEqual(
      denied,
    );
    expect((await c.patch(`/realm/profile_fields/${id}`, { name: 'n' })).body).toEqual(denied);
    expect((await c.delete(`/realm/profile_fields/${id}`)).body).toEqual(denied);
    expect((await c.patch('/realm/profile_fields', { order: [id] })).body).toEqual(denied);
    expect((await c.get('/realm/profile_fields')).status).toBe(200);
    await remove(id);
  });

  it.each(['admin', 'owner'] as const)('%s may', async (who) => {
    const res = await t.as(who).post('/realm/profile_fields', { name: `By ${who}`, field_type: 1 });
    expect(res.body).toMatchObject(ok);
    expect((await t.as(who).delete(`/realm/profile_fields/${res.body.id}`)).body).toEqual(ok);
  });

  it('a deactivated user may do nothing', async () => {
    const res = await t.as(gone).get('/realm/profile_fields');
    expect(res.body).toMatchObject({ code: 'USER_DEACTIVATED' });
  });
});
