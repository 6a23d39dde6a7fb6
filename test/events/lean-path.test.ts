/**
 * GET /events as clients send it is answered by a lean path in front of
 * Fastify (server/http/lean-events.ts); any other spelling goes to the
 * route. Both must answer alike: the same bytes, no rate-limit headers
 * (Zulip does not rate-limit GET /events), a line in the request log, the
 * Host allowlist, and a refusal as soon as the caller is deactivated,
 * although their key was known a moment before.
 */

import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A GET as is, with the target and headers given (fetch would set Host itself). */
function rawGet(target: string, headers: Record<string, string>): Promise<RawAnswer> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: target, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function queueOf(who: 'member' | 'owner' | 'guest'): Promise<string> {
  const res = await t.as(who).post('/register', { event_types: ['message'] });
  expect(res.status).toBe(200);
  return res.body.queue_id;
}

const authOf = (who: 'member' | 'owner' | 'guest') =>
  basicAuth(t.accounts[who].email, t.accounts[who].apiKey);

const host = () => new URL(t.url).host;

describe('GET /events on its lean path', () => {
  it('answers as the route does, byte for byte, without rate-limit headers', async () => {
    const queueId = await queueOf('member');
    const headers = { host: host(), authorization: authOf('member') };
    // The plain spelling (lean path), then the same request with an escaped
    // minus sign, which only the route's parameter parser reads.
    const lean = await rawGet(
      `/api/v1/events?queue_id=${queueId}&last_event_id=-1&dont_block=true`,
      headers,
    );
    const route = await rawGet(
      `/api/v1/events?queue_id=${queueId}&last_event_id=%2D1&dont_block=true`,
      headers,
    );
    for (const answer of [lean, route]) {
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(
        `{"result":"success","msg":"","events":[],"queue_id":${JSON.stringify(queueId)}}`,
      );
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
      expect(Object.keys(answer.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
    }
  });

  it('delivers a message to a waiting poll, and logs the poll', async () => {
    const queueId = await queueOf('owner');
    const waiting = rawGet(`/api/v1/events?queue_id=${queueId}&last_event_id=-1`, {
      host: host(),
      authorization: authOf('owner'),
    });
    await new Promise((r) => setTimeout(r, 100));
    const sent = await t.as('member').post('/messages', {
      type: 'direct',
      to: JSON.stringify([t.accounts.owner.id]),
      content: 'lean hello',
    });
    expect(sent.status).toBe(200);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.text);
    expect(body.events).toEqual([
      expect.objectContaining({
        type: 'message',
        id: 0,
        message: expect.objectContaining({ id: sent.body.id }),
      }),
    ]);
    await t.server.ctx.log.flush?.();
    const log = readFileSync(path.join(t.dataDir, 'logs', 'hearth.log'), 'utf8');
    expect(log).toContain(`GET /api/v1/events?queue_id=${queueId}&last_event_id=-1 200`);
  });

  it('refuses a host this server is not reached by', async () => {
    const queueId = await queueOf('member');
    const answer = await rawGet(
      `/api/v1/events?queue_id=${queueId}&last_event_id=-1&dont_block=true`,
      {
        host: 'rebound.example',
        authorization: authOf('member'),
      },
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Invalid Host header: rebound.example',
    });
  });

  it('refuses a user deactivated since their last poll', async () => {
    const queueId = await queueOf('guest');
    const target = `/api/v1/events?queue_id=${queueId}&last_event_id=-1&dont_block=true`;
    const headers = { host: host(), authorization: authOf('guest') };
    expect((await rawGet(target, headers)).status).toBe(200);
    expect((await t.as('owner').delete(`/users/${t.accounts.guest.id}`)).status).toBe(200);
    const refused = await rawGet(target, headers);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'USER_DEACTIVATED' });
  });
});
