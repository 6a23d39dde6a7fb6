/**
 * Deeply nested JSON (a request body or a JSON-valued parameter) is refused
 * with a 400 before anything recursive (JSON.stringify, zod, narrow parsing,
 * superjson) touches it, whether or not the request is authenticated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authHeader, expectEnvelope, type RawResponse, raw } from './support.js';

const ADMIN_TOKEN = 'deep-nesting-admin-token';
const DEPTH = 5000;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ adminToken: ADMIN_TOKEN });
});
afterAll(() => t.close());

/** `[[[...1...]]]`, `depth` arrays deep. */
const deepArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
/** `{"a":{"a":...1...}}`, `depth` objects deep. */
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

function expectTooDeep(res: RawResponse): void {
  expectEnvelope(res);
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('BAD_REQUEST');
  expect(res.body.msg).toMatch(/nested too deeply/);
}

const jsonBody = (fields: Record<string, string>) =>
  `{${Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(',')}}`;

describe('a deeply nested JSON body (application/json)', () => {
  it('is a 400 on an unauthenticated endpoint', async () => {
    for (const deep of [deepArray(DEPTH), deepObject(DEPTH)]) {
      const res = await raw(t.url, 'POST', '/api/v1/fetch_api_key', {
        headers: { 'content-type': 'application/json' },
        body: jsonBody({ username: '"nobody@example.com"', password: '"x"', extra: deep }),
      });
      expectTooDeep(res);
    }
    // The whole body nested: still a 400.
    expectTooDeep(
      await raw(t.url, 'POST', '/api/v1/fetch_api_key', {
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: deepArray(DEPTH),
      }),
    );
  });

  it('is a 400 on authenticated endpoints, with or without valid credentials', async () => {
    const body = jsonBody({
      type: '"stream"',
      to: '"general"',
      topic: '"x"',
      content: deepArray(DEPTH),
    });
    const member = await raw(t.url, 'POST', '/api/v1/messages', {
      headers: { 'content-type': 'application/json', authorization: authHeader(t.accounts.member) },
      body,
    });
    expectTooDeep(member);
    const anonymous = await raw(t.url, 'PATCH', `/api/v1/users/${t.accounts.member.id}`, {
      headers: { 'content-type': 'application/json' },
      body: jsonBody({ full_name: deepObject(DEPTH) }),
    });
    expectTooDeep(anonymous);
  });

  it('moderately nested JSON bodies still work', async () => {
    const res = await raw(t.url, 'PATCH', `/api/v1/users/${t.accounts.member.id}`, {
      headers: { 'content-type': 'application/json', authorization: authHeader(t.accounts.admin) },
      body: jsonBody({ full_name: '"Mel Member"', extra: deepArray(10) }),
    });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['extra']);
    // Brackets inside strings (after an escaped quote too) are text, not nesting.
    const text = JSON.stringify(`\\"${'['.repeat(100)}`);
    const inString = await raw(t.url, 'PATCH', `/api/v1/users/${t.accounts.member.id}`, {
      headers: { 'content-type': 'application/json', authorization: authHeader(t.accounts.admin) },
      body: jsonBody({ full_name: '"Mel Member"', extra: text }),
    });
    expect(inString.status).toBe(200);
    expect(inString.body.ignored_parameters_unsupported).toEqual(['extra']);
  });
});

describe('a deeply nested JSON-valued parameter', () => {
  const deepNarrows = [
    deepArray(DEPTH),
    `[["channel", ${deepArray(DEPTH)}]]`,
    `[{"operator": "channel", "operand": ${deepObject(DEPTH)}}]`,
  ];

  it('is a 400 in a form body, the query string or multipart, authenticated', async () => {
    const auth = { authorization: authHeader(t.accounts.member) };
    for (const narrow of deepNarrows) {
      // Brackets need no escaping in a query string, so 5,000 levels fit in the
      // URL; the escaped quotes of nested objects would not.
      if (!narrow.includes('{')) {
        const query = `anchor=newest&num_before=1&num_after=0&narrow=${narrow}`;
        expectTooDeep(await raw(t.url, 'GET', `/api/v1/messages?${query}`, { headers: auth }));
      }
      expectTooDeep(
        await raw(t.url, 'POST', '/api/v1/register', {
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ narrow }).toString(),
        }),
      );
      const form = new FormData();
      form.append('narrow', narrow);
      form.append('op', 'add');
      form.append('flag', 'read');
      form.append('anchor', 'newest');
      form.append('num_before', '0');
      form.append('num_after', '0');
      expectTooDeep(
        await raw(t.url, 'POST', '/api/v1/messages/flags/narrow', { headers: auth, body: form }),
      );
    }
    // Integers and booleans are JSON too.
    expectTooDeep(
      await raw(t.url, 'POST', '/api/v1/register', {
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ apply_markdown: deepArray(DEPTH) }).toString(),
      }),
    );
  });

  it('never reaches parsing without credentials', async () => {
    const res = await raw(t.url, 'POST', '/api/v1/register', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ narrow: deepArray(DEPTH) }).toString(),
    });
    expectEnvelope(res);
    expect(res.status).toBe(401);
    // An unauthenticated endpoint ignores parameters it does not take.
    const settings = await raw(t.url, 'GET', `/api/v1/server_settings?narrow=${deepArray(DEPTH)}`);
    expect(settings.status).toBe(200);
    expect(settings.body.ignored_parameters_unsupported).toEqual(['narrow']);
  });

  it('plain-text parameters may contain any brackets', async () => {
    const content = `${'['.repeat(200)} not JSON`;
    const res = await raw(t.url, 'POST', '/api/v1/messages/render', {
      headers: {
        authorization: authHeader(t.accounts.member),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ content }).toString(),
    });
    expect(res.status).toBe(200);
  });
});

describe('deeply nested tRPC input', () => {
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

  it('is a 400 in the query string and in a JSON body', async () => {
    const input = `{"json":{"userId":1,"x":${deepArray(DEPTH)}}}`;
    const query = await raw(t.url, 'GET', `/trpc/users.get?input=${input}`, {
      headers: auth,
    });
    expect(query.status).toBe(400);
    expect(query.text).toMatch(/nested too deeply/);
    const body = await raw(t.url, 'POST', '/trpc/users.create', {
      headers: { ...auth, 'content-type': 'application/json' },
      body: `{"json":{"email":"a@example.com","fullName":"A","x":${deepObject(DEPTH)}}}`,
    });
    expect(body.status).toBe(400);
    expect(body.text).toMatch(/nested too deeply/);
  });
});
