/**
 * Zulip lets incoming-webhook bots send messages and nothing else: every
 * other endpoint answers 401 UNAUTHORIZED, so a leaked integration key cannot
 * read the messages, channels or users of the organization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../server/http/routes/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type Callers, setUpCallers } from './callers.js';

let t: TestServer;
let callers: Callers;
beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false });
  callers = setUpCallers(t);
});
afterAll(() => t.close());

const REFUSED = {
  result: 'error',
  msg: 'This API is not available to incoming webhook bots.',
  code: 'UNAUTHORIZED',
};

async function asHook(method: string, path: string, form?: Record<string, string>) {
  const res = await fetch(t.url + path, {
    method,
    headers: {
      authorization: callers.authorization('incoming_bot')!,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('incoming-webhook bots', () => {
  it('may send a message', async () => {
    const res = await asHook('POST', '/api/v1/messages', {
      type: 'direct',
      to: JSON.stringify([t.accounts.member.id]),
      content: 'from the integration',
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toEqual(expect.any(Number));
  });

  it.each([
    ['GET', '/api/v1/messages?anchor=newest&num_before=10&num_after=0'],
    ['POST', '/api/v1/register'],
    ['GET', '/api/v1/users'],
    ['GET', '/api/v1/users/me'],
    ['GET', '/api/v1/streams'],
    ['GET', '/api/v1/bot_storage'],
  ])('may not %s %s', async (method, path) => {
    const res = await asHook(method, path);
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: REFUSED });
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  });

  it('every other authenticated route refuses them before reading parameters', async () => {
    const wrong: string[] = [];
    for (const route of allRoutes) {
      if (route.auth === 'none' || route.allowIncomingWebhooks) continue;
      const path = route.path.replace(/:[A-Za-z_]+(\([^)]*\))?|\*/g, '1');
      const res = await asHook(route.method, (route.atRoot ? '' : '/api/v1') + path);
      if (res.status !== 401 || res.body.msg !== REFUSED.msg) {
        wrong.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('only POST /messages and the integration URLs let them in', () => {
    const open = allRoutes.filter((r) => r.allowIncomingWebhooks);
    expect(open.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'POST /external/:integration',
      'POST /messages',
    ]);
  });

  it('a deactivated one is told it is deactivated, as for any user', async () => {
    const off = await t.as('owner').delete(`/bots/${callers.ids.incoming_bot}`);
    expect(off.status).toBe(200);
    const res = await asHook('GET', '/api/v1/users/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('USER_DEACTIVATED');
    const on = await t.as('owner').post(`/users/${callers.ids.incoming_bot}/reactivate`);
    expect(on.status).toBe(200);
  });
});
