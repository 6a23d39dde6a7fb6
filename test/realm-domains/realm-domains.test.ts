/**
 * Allowed domains: POST /realm/domains, PATCH and DELETE
 * /realm/domains/{domain} (owners), realm_domains events and register
 * state, and the check POST /users makes while emails_restricted_to_domains
 * is on.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadRealm } from '../../server/shared/realm.js';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { quickMember } from '../helpers/fixtures.js';
import {
  type Account,
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
  setRealm(t, { emails_restricted_to_domains: false });
  t.server.ctx.db.prepare('DELETE FROM realm_domains').run();
  await watchers.clear();
});

const add = (who: FixtureName | Account, domain: string, allowSubdomains = false) =>
  t.as(who).post('/realm/domains', { domain, allow_subdomains: allowSubdomains });
const change = (who: FixtureName | Account, domain: string, allowSubdomains: boolean) =>
  t
    .as(who)
    .patch(`/realm/domains/${encodeURIComponent(domain)}`, { allow_subdomains: allowSubdomains });
const remove = (who: FixtureName | Account, domain: string) =>
  t.as(who).delete(`/realm/domains/${encodeURIComponent(domain)}`);

async function registered(who: FixtureName = 'member') {
  const res = await t.as(who).post('/register', { fetch_event_types: ['realm_domains'] });
  return res.body.realm_domains;
}

/** A fresh domain name for tests that only need one to exist. */
function freshDomain(): string {
  counter++;
  return `d${counter}.example.net`;
}

/** Another owner, deactivated: the organization's only owner cannot be. */
async function deactivatedOwner(): Promise<Account> {
  const former = await quickMember(t, 'Former Owner', 100);
  const res = await t.as('owner').delete(`/users/${former.id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return former;
}

describe('GET /realm/domains', () => {
  it('lists the domains to any user, in the order they were added', async () => {
    expect((await add('owner', 'b.example.org', true)).status).toBe(200);
    expect((await add('owner', 'a.example.org')).status).toBe(200);
    for (const who of ['guest', 'member', 'bot'] as const) {
      const res = await t.as(who).get('/realm/domains');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: 'success',
        msg: '',
        domains: [
          { domain: 'b.example.org', allow_subdomains: true },
          { domain: 'a.example.org', allow_subdomains: false },
        ],
      });
    }
  });
});

describe('POST /realm/domains', () => {
  it('adds the domain, lower-cased and trimmed, and tells everyone', async () => {
    expect(await registered()).toEqual([]);
    const res = await add('owner', '  Example.ORG ', true);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      new_domain: [expect.any(Number), 'example.org'],
    });
    const events = await watchers.take('realm_domains');
    expect(receivers(events)).toEqual(everyone);
    expect(events.guest).toEqual([
      {
        id: expect.any(Number),
        type: 'realm_domains',
        op: 'add',
        realm_domain: { domain: 'example.org', allow_subdomains: true },
      },
    ]);

    await add('owner', 'aaa.example', false);
    // In the order they were added.
    expect(await registered('guest')).toEqual([
      { domain: 'example.org', allow_subdomains: true },
      { domain: 'aaa.example', allow_subdomains: false },
    ]);
  });

  it('refuses a domain that is already there', async () => {
    await add('owner', 'example.org');
    await watchers.clear();
    expectError(
      await add('owner', 'EXAMPLE.org', true),
      400,
      'BAD_REQUEST',
      'The domain example.org is already a part of your organization.',
    );
    expect(receivers(await watchers.take())).toEqual([]);
    expect(await registered()).toEqual([{ domain: 'example.org', allow_subdomains: false }]);
  });

  it.each([
    ['', "Domain can't be empty."],
    ['   ', "Domain can't be empty."],
    ['localhost', 'Domain must have at least one dot (.)'],
    [`${'a'.repeat(252)}.com`, 'Domain is too long'],
    ['.example.org', 'Domain cannot start or end with a dot (.)'],
    ['example.org.', 'Domain cannot start or end with a dot (.)'],
    ['example..org', "Consecutive '.' are not allowed."],
    ['-example.org', "Subdomains cannot start or end with a '-'."],
    ['example-.org', "Subdomains cannot start or end with a '-'."],
    ['exa_mple.org', "Domain can only have letters, numbers, '.' and '-'s."],
    ['exa mple.org', "Domain can only have letters, numbers, '.' and '-'s."],
    ['bücher.de', "Domain can only have letters, numbers, '.' and '-'s."],
    ['"example.org"', "Domain can only have letters, numbers, '.' and '-'s."],
  ])('refuses %j', async (domain, problem) => {
    expectError(await add('owner', domain), 400, 'BAD_REQUEST', `Invalid domain: ${problem}`);
    expect(await registered()).toEqual([]);
  });

  it('accepts the longest domain, digits and inner hyphens', async () => {
    const longest = `${'a'.repeat(251)}.com`;
    expect((await add('owner', longest)).body.new_domain[1]).toBe(longest);
    expect((await add('owner', 'x-1.2-y.example')).status).toBe(200);
  });

  it('requires both parameters, allow_subdomains as a boolean', async () => {
    expectError(
      await t.as('owner').post('/realm/domains', { allow_subdomains: true }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'domain' argument",
      { var_name: 'domain' },
    );
    expectError(
      await t.as('owner').post('/realm/domains', { domain: 'example.org' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'allow_subdomains' argument",
      { var_name: 'allow_subdomains' },
    );
    expectError(
      await t.as('owner').post('/realm/domains', { domain: 'example.org', allow_subdomains: 1 }),
      400,
      'BAD_REQUEST',
      'allow_subdomains is not a boolean',
    );
  });

  it.each(['admin', 'moderator', 'member', 'guest', 'bot'] as const)(
    'is refused to %s',
    async (who) => {
      expectError(
        await add(who, freshDomain()),
        400,
        'UNAUTHORIZED_PRINCIPAL',
        'Must be an organization owner',
      );
      expect(await registered()).toEqual([]);
    },
  );

  it('is refused to a deactivated owner', async () => {
    const former = await deactivatedOwner();
    expectError(
      await add(former, freshDomain()),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
    expect(await registered()).toEqual([]);
  });
});

describe('PATCH /realm/domains/{domain}', () => {
  it('changes allow_subdomains and tells everyone', async () => {
    await add('owner', 'example.org');
    await watchers.clear();
    const res = await change('owner', 'example.org', true);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await registered()).toEqual([{ domain: 'example.org', allow_subdomains: true }]);
    const events = await watchers.take('realm_domains');
    expect(receivers(events)).toEqual(everyone);
    expect(events.member).toEqual([
      {
        id: expect.any(Number),
        type: 'realm_domains',
        op: 'change',
        realm_domain: { domain: 'example.org', allow_subdomains: true },
      },
    ]);
  });

  it('needs the domain exactly as stored', async () => {
    await add('owner', 'example.org');
    expectError(
      await change('owner', 'Example.org', true),
      400,
      'BAD_REQUEST',
      'No entry found for domain Example.org.',
    );
    expectError(
      await change('owner', 'other.org', true),
      400,
      'BAD_REQUEST',
      'No entry found for domain other.org.',
    );
    expect(await registered()).toEqual([{ domain: 'example.org', allow_subdomains: false }]);
  });

  it('requires allow_subdomains', async () => {
    await add('owner', 'example.org');
    expectError(
      await t.as('owner').patch('/realm/domains/example.org', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'allow_subdomains' argument",
      { var_name: 'allow_subdomains' },
    );
  });

  it.each(['admin', 'moderator', 'member', 'guest', 'bot'] as const)(
    'is refused to %s',
    async (who) => {
      await add('owner', 'example.org');
      expectError(
        await change(who, 'example.org', true),
        400,
        'UNAUTHORIZED_PRINCIPAL',
        'Must be an organization owner',
      );
      expect(await registered()).toEqual([{ domain: 'example.org', allow_subdomains: false }]);
    },
  );

  it('is refused to a deactivated owner', async () => {
    await add('owner', 'example.org');
    const former = await deactivatedOwner();
    expectError(
      await change(former, 'example.org', true),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
  });
});

describe('DELETE /realm/domains/{domain}', () => {
  it('removes the domain and tells everyone', async () => {
    await add('owner', 'example.org');
    await add('owner', 'example.com');
    await watchers.clear();
    const res = await remove('owner', 'example.org');
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await registered()).toEqual([{ domain: 'example.com', allow_subdomains: false }]);
    const events = await watchers.take();
    expect(receivers(events)).toEqual(everyone);
    expect(events.bot).toEqual([
      { id: expect.any(Number), type: 'realm_domains', op: 'remove', domain: 'example.org' },
    ]);
    expectError(
      await remove('owner', 'example.org'),
      400,
      'BAD_REQUEST',
      'No entry found for domain example.org.',
    );
  });

  it('turns the restriction off with the last domain', async () => {
    await add('owner', 'example.org');
    await add('owner', 'example.com');
    setRealm(t, { emails_restricted_to_domains: true });
    await watchers.clear();

    await remove('owner', 'example.org');
    expect(loadRealm(t.server.ctx).settings.emails_restricted_to_domains).toBe(true);
    expect(receivers(await watchers.take('realm'))).toEqual([]);

    await remove('owner', 'example.com');
    expect(loadRealm(t.server.ctx).settings.emails_restricted_to_domains).toBe(false);
    const events = await watchers.take();
    expect(events.member!.map((e: { type: string }) => e.type)).toEqual(['realm', 'realm_domains']);
    expect(receivers(events, (e) => e.type === 'realm')).toEqual(everyone);
    expect(events.member![0]).toEqual({
      id: expect.any(Number),
      type: 'realm',
      op: 'update',
      property: 'emails_restricted_to_domains',
      value: false,
    });
    const state = await t.as('member').post('/register', { fetch_event_types: ['realm'] });
    expect(state.body.realm_emails_restricted_to_domains).toBe(false);
  });

  it('leaves the setting alone when it is off', async () => {
    await add('owner', 'example.org');
    await watchers.clear();
    await remove('owner', 'example.org');
    expect(receivers(await watchers.take('realm'))).toEqual([]);
  });

  it.each(['admin', 'moderator', 'member', 'guest', 'bot'] as const)(
    'is refused to %s',
    async (who) => {
      await add('owner', 'example.org');
      expectError(
        await remove(who, 'example.org'),
        400,
        'UNAUTHORIZED_PRINCIPAL',
        'Must be an organization owner',
      );
      expect(await registered()).toEqual([{ domain: 'example.org', allow_subdomains: false }]);
    },
  );

  it('is refused to a deactivated owner', async () => {
    await add('owner', 'example.org');
    const former = await deactivatedOwner();
    expectError(
      await remove(former, 'example.org'),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
    expect(await registered()).toHaveLength(1);
  });
});

describe('accounts while emails_restricted_to_domains is on', () => {
  const createUser = (email: string) =>
    t.as('admin').post('/users', { email, password: 'a long password', full_name: 'New Person' });

  beforeEach(async () => {
    await add('owner', 'example.org', false);
    await add('owner', 'corp.test', true);
    setRealm(t, { emails_restricted_to_domains: true });
  });

  it.each([
    'alice@example.org',
    'bob@EXAMPLE.ORG',
    'carol@corp.test',
    'dave@eng.corp.test',
    'erin@a.b.corp.test',
  ])('accepts %s', async (email) => {
    const res = await createUser(email);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it.each([
    'frank@sub.example.org',
    'grace@example.com',
    'heidi@notcorp.test',
    'ivan@test',
    'judy@corp.test.evil.com',
  ])('refuses %s', async (email) => {
    expectError(
      await createUser(email),
      400,
      'BAD_REQUEST',
      `Email '${email}' not allowed in this organization`,
    );
    const lookup = await t.as('owner').get(`/users/${email}`);
    expect(lookup.body.msg).toBe('No such user');
  });

  it('refuses + in the address', async () => {
    expectError(
      await createUser('mallory+tag@example.org'),
      400,
      'BAD_REQUEST',
      'Email addresses containing + are not allowed.',
    );
  });

  it('checks the domain before whether the address is taken', async () => {
    expectError(
      await createUser(t.accounts.member.email),
      400,
      'BAD_REQUEST',
      `Email '${t.accounts.member.email}' not allowed in this organization`,
    );
  });

  it('checks nothing once the setting is off', async () => {
    setRealm(t, { emails_restricted_to_domains: false });
    expect((await createUser('oscar+x@elsewhere.com')).status).toBe(200);
  });
});
