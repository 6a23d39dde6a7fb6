/**
 * Linkifiers: GET /realm/linkifiers (everyone), POST /realm/filters,
 * PATCH/DELETE /realm/filters/{filter_id} and PATCH /realm/linkifiers
 * (reorder; administrators), the realm_linkifiers event (the whole list, to
 * everyone) and POST /register's realm_linkifiers, both only for clients with
 * the linkifier_url_template capability. Texts follow Zulip's
 * test_realm_linkifiers.py.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watcher, Watchers } from '../helpers/event-queues.js';
import {
  type ApiResponse,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
const everyone = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];
let counter = 0;
/** Zulip sends linkifiers (URL templates) only to clients that say they read them. */
const CAPABLE = { client_capabilities: { linkifier_url_template: true } };

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t, CAPABLE);
  for (const who of everyone) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(async () => {
  // Each test starts from no linkifiers.
  const res = await t.as('member').get('/realm/linkifiers');
  for (const l of res.body.linkifiers) await t.as('admin').delete(`/realm/filters/${l.id}`);
  await watchers.clear();
});

const add = (who: FixtureName, params: Record<string, unknown>) =>
  t.as(who).post('/realm/filters', params);

function linkifier(extra: Record<string, unknown> = {}) {
  counter++;
  return {
    pattern: `T${counter}-(?P<id>[0-9]+)`,
    url_template: `https://tracker.example/${counter}/{id}`,
    ...extra,
  };
}

async function addOk(params: Record<string, unknown> = linkifier()): Promise<number> {
  const res = await add('admin', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

async function listed(who: FixtureName = 'member') {
  const res = await t.as(who).get('/realm/linkifiers');
  expect(res.status).toBe(200);
  return res.body.linkifiers;
}

async function registered(who: FixtureName = 'member', params: Record<string, unknown> = CAPABLE) {
  const res = await t
    .as(who)
    .post('/register', { fetch_event_types: ['realm_linkifiers'], ...params });
  return res.body.realm_linkifiers;
}

function expectInvalid(res: ApiResponse, errors: Record<string, string[]>) {
  expectError(res, 400, 'BAD_REQUEST', Object.values(errors)[0]![0]!, { errors });
}

describe('POST /realm/filters', () => {
  it('adds a linkifier, tells everyone the whole list, and lists and registers it', async () => {
    const res = await add('admin', {
      pattern: '  #(?P<id>[123]) ',
      url_template: ' https://realm.example/my_realm_filter/{id} ',
    });
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const list = [
      {
        id: res.body.id,
        pattern: '#(?P<id>[123])',
        url_template: 'https://realm.example/my_realm_filter/{id}',
      },
    ];
    expect(await listed()).toEqual(list);
    expect(await listed('guest')).toEqual(list);
    expect(await registered('guest')).toEqual(list);
    const events = await watchers.take('realm_linkifiers');
    expect(receivers(events)).toEqual(everyone);
    expect(events.member).toEqual([
      { id: expect.any(Number), type: 'realm_linkifiers', realm_linkifiers: list },
    ]);
  });

  it('tells a client without linkifier_url_template nothing, in register or events', async () => {
    const plain = await Watcher.register(t.as('member'), {}, 'plain');
    const declined = await Watcher.register(
      t.as('member'),
      { client_capabilities: { linkifier_url_template: false } },
      'declined',
    );
    await addOk();
    expect(await listed()).toHaveLength(1);
    expect(await plain.take('realm_linkifiers')).toEqual([]);
    expect(await declined.take('realm_linkifiers')).toEqual([]);
    expect(await registered('member', {})).toEqual([]);
    expect(await registered('member', { client_capabilities: {} })).toEqual([]);
    expect(await registered('member')).toHaveLength(1);
  });

  it('links matching text in messages sent afterwards', async () => {
    await addOk({ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://zulip.example/{id}' });
    const res = await t.as('member').post('/messages/render', { content: 'see ZUL-15 now' });
    expect(res.body.rendered).toBe('<p>see <a href="https://zulip.example/15">ZUL-15</a> now</p>');
  });

  it.each([
    ['ZUL2-(?P<id>\\d+)', 'https://realm.example/my_realm_filter/?value={id}'],
    ['_code=(?P<id>[0-9a-zA-Z]+)', 'https://example.com/product/{id}/details'],
    ['!(?P<id>[0-9]+)', 'https://realm.example/index.pl?Action=AgentTicketZoom;TicketNumber={id}'],
    ['ZUL-URL-(?P<id>\\d+)', 'https://example.com/%ba/{id}'],
    [
      '(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)',
      'https://github.com/{org}/{repo}/issue/{id}',
    ],
    [
      'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
      'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
    ],
    ['3#123', 'https://example.com'],
  ])('accepts %s -> %s', async (pattern, url_template) => {
    await addOk({ pattern, url_template });
  });

  it('refuses what Zulip refuses, with its texts', async () => {
    const template = 'https://realm.example/my_realm_filter/{id}';
    expectInvalid(await add('admin', { pattern: '', url_template: template }), {
      pattern: ['This field cannot be blank.'],
      __all__: ["Group 'id' in URL template is not present in linkifier pattern."],
    });
    const bad = await add('admin', { pattern: '(foo', url_template: template });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/^Bad regular expression: /);
    expect(bad.body.errors).toEqual({ __all__: [bad.body.msg] });
    expectInvalid(await add('admin', { pattern: 'ZUL-(?P<id>\\d+)', url_template: '$fgfg' }), {
      __all__: ["Group 'id' in linkifier pattern is not present in URL template."],
    });
    expectInvalid(
      await add('admin', {
        pattern: 'ZUL-(?P<id>\\d+)',
        url_template: 'https://realm.example/my_realm_filter/{hello}',
      }),
      { __all__: ["Group 'hello' in URL template is not present in linkifier pattern."] },
    );
    expectInvalid(
      await add('admin', {
        pattern: 'ZUL-(?P<id>\\d+)-(?P<hello>\\d+)-(?P<world>\\d+)',
        url_template: 'https://realm.example/my_realm_filter/{hello}',
      }),
      { __all__: ["Group 'id' in linkifier pattern is not present in URL template."] },
    );
    expectInvalid(await add('admin', { pattern: '#(?P<id>[123])', url_template: '{id' }), {
      url_template: ['Invalid URL template.'],
    });
    expectInvalid(await add('admin', { pattern: '#(?P<id>[123])', url_template: '  ' }), {
      url_template: ['This field cannot be blank.'],
      __all__: ["Group 'id' in linkifier pattern is not present in URL template."],
    });
    expect(await listed()).toEqual([]);
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('refuses a second linkifier with the same pattern', async () => {
    const first = linkifier();
    await addOk(first);
    expectInvalid(await add('admin', { ...first, url_template: 'https://other.example/{id}' }), {
      __all__: ['Realm filter with this Realm and Pattern already exists.'],
    });
  });

  it.each(['pattern', 'url_template'])('requires %s', async (param) => {
    const params: Record<string, unknown> = linkifier();
    delete params[param];
    expectError(
      await add('admin', params),
      400,
      'REQUEST_VARIABLE_MISSING',
      `Missing '${param}' argument`,
      { var_name: param },
    );
  });

  it.each(['moderator', 'member', 'guest', 'bot'] as const)('is refused to %s', async (who) => {
    expectError(
      await add(who, linkifier()),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect(await listed()).toEqual([]);
  });

  it.each(['owner', 'admin'] as const)('is allowed to %s', async (who) => {
    expect((await add(who, linkifier())).status).toBe(200);
  });
});

describe('PATCH /realm/filters/{filter_id}', () => {
  it('changes pattern and template in place and tells everyone', async () => {
    const first = await addOk();
    const id = await addOk();
    const last = await addOk();
    await watchers.clear();
    const res = await t.as('admin').patch(`/realm/filters/${id}`, {
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://realm.example/issues/{id}',
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const list = await listed();
    expect(list.map((l: { id: number }) => l.id)).toEqual([first, id, last]);
    expect(list[1]).toEqual({
      id,
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://realm.example/issues/{id}',
    });
    const events = await watchers.take();
    expect(receivers(events)).toEqual(everyone);
    expect(events.guest).toEqual([
      { id: expect.any(Number), type: 'realm_linkifiers', realm_linkifiers: list },
    ]);
  });

  it('keeps its own pattern, refuses another one’s, and validates', async () => {
    const a = linkifier();
    const idA = await addOk(a);
    const idB = await addOk();
    const same = await t.as('admin').patch(`/realm/filters/${idA}`, a);
    expect(same.status).toBe(200);
    expectInvalid(await t.as('admin').patch(`/realm/filters/${idB}`, a), {
      __all__: ['Realm filter with this Realm and Pattern already exists.'],
    });
    expectInvalid(
      await t.as('admin').patch(`/realm/filters/${idB}`, {
        pattern: 'ZUL-(?P<id>\\d+)',
        url_template: '$fgfg',
      }),
      { __all__: ["Group 'id' in linkifier pattern is not present in URL template."] },
    );
  });

  it('refuses an unknown linkifier before validating', async () => {
    expectError(
      await t.as('admin').patch('/realm/filters/987654', { pattern: '', url_template: '' }),
      400,
      'BAD_REQUEST',
      'Linkifier not found.',
    );
  });

  it.each(['moderator', 'member', 'guest'] as const)('is refused to %s', async (who) => {
    const id = await addOk();
    expectError(
      await t.as(who).patch(`/realm/filters/${id}`, linkifier()),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });
});

describe('DELETE /realm/filters/{filter_id}', () => {
  it('removes it, keeps the order of the rest, and tells everyone', async () => {
    const ids = [await addOk(), await addOk(), await addOk()];
    await watchers.clear();
    expect((await t.as('admin').delete(`/realm/filters/${ids[1]}`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    const list = await listed();
    expect(list.map((l: { id: number }) => l.id)).toEqual([ids[0], ids[2]]);
    const events = await watchers.take();
    expect(receivers(events)).toEqual(everyone);
    expect(events.admin![0].realm_linkifiers).toEqual(list);
    expectError(
      await t.as('admin').delete(`/realm/filters/${ids[1]}`),
      400,
      'BAD_REQUEST',
      'Linkifier not found.',
    );
  });

  it('is refused to a member', async () => {
    const id = await addOk();
    expectError(
      await t.as('member').delete(`/realm/filters/${id}`),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });
});

describe('PATCH /realm/linkifiers', () => {
  const reorder = (ids: unknown, who: FixtureName = 'admin') =>
    t.as(who).patch('/realm/linkifiers', { ordered_linkifier_ids: ids });

  it('with none, accepts the empty order and tells nobody', async () => {
    expect((await reorder([])).status).toBe(200);
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('reorders, new ones go last, and deleting keeps the order', async () => {
    const ids = [await addOk(), await addOk(), await addOk()];
    await watchers.clear();
    const order = [ids[2]!, ids[1]!, ids[0]!];
    expect((await reorder(order)).status).toBe(200);
    const list = await listed();
    expect(list.map((l: { id: number }) => l.id)).toEqual(order);
    const events = await watchers.take();
    expect(receivers(events)).toEqual(everyone);
    expect(events.owner![0].realm_linkifiers).toEqual(list);
    expect((await registered()).map((l: { id: number }) => l.id)).toEqual(order);

    const newest = await addOk();
    expect((await listed()).map((l: { id: number }) => l.id)).toEqual([...order, newest]);
  });

  it('refuses duplicates, unknown ids and incomplete lists', async () => {
    const ids = [await addOk(), await addOk()];
    expectError(
      await reorder([ids[0], ids[1], ids[0]]),
      400,
      'BAD_REQUEST',
      'The ordered list must not contain duplicated linkifiers',
    );
    for (const wrong of [[ids[0]], [ids[0], ids[1], 987654]]) {
      expectError(
        await reorder(wrong),
        400,
        'BAD_REQUEST',
        'The ordered list must enumerate all existing linkifiers exactly once',
      );
    }
    expectError(
      await reorder('[1, "x"]'),
      400,
      'BAD_REQUEST',
      'ordered_linkifier_ids[1] is not an integer',
    );
  });

  it('is refused to a moderator', async () => {
    expectError(
      await reorder([], 'moderator'),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });
});
