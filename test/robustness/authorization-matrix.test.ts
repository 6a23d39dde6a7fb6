/**
 * Who may call what. First, for every route, the callers whose credentials
 * cannot work (none, a wrong key, a deactivated account, a deactivated
 * organization) get exactly the 401 Zulip gives, before any parameter is
 * read. Then a table of role-restricted endpoints: each probe is a request an
 * entitled caller makes successfully, and the table gives every caller's
 * answer (ok, or the status and code of the refusal).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../server/http/routes/index.js';
import { deactivateOrganization } from '../../server/realm/index.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import {
  basicAuth,
  FIXTURE_PASSWORD,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import {
  botCallers,
  type CallerName,
  type Callers,
  humanCallers,
  setUpCallers,
} from './callers.js';

let t: TestServer;
let callers: Callers;
let channelId: number;

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false, outgoingWebhookTimeoutMs: 200 });
  callers = setUpCallers(t);
  channelId = createChannel(t, {
    name: 'matrix',
    subscribers: Object.values(callers.ids),
  });
});
afterAll(() => t.close());

/** A request path for a route, every path parameter a plausible value. */
const samplePath = (route: (typeof allRoutes)[number]) =>
  (route.atRoot ? '' : '/api/v1') + route.path.replace(/:[A-Za-z_]+(\([^)]*\))?|\*/g, '1');

interface Outcome {
  status: number;
  code?: string;
  msg?: string;
}

async function call(
  base: string,
  method: string,
  path: string,
  authorization: string | undefined,
  params: Record<string, unknown> = {},
): Promise<Outcome> {
  const url = new URL(base + path);
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  const entries = Object.entries(params).map(
    ([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string],
  );
  let body: string | undefined;
  if (method === 'GET') for (const [k, v] of entries) url.searchParams.set(k, v);
  else {
    body = new URLSearchParams(entries).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await fetch(url, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let json: { code?: string; msg?: string } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // File answers are not JSON.
  }
  return { status: res.status, code: json.code, msg: json.msg };
}

describe('callers whose credentials cannot work, on every route', () => {
  const authed = allRoutes.filter((r) => r.auth !== 'none');

  it('no credentials: 401 UNAUTHORIZED with the Basic challenge (integration URLs: api_key missing)', async () => {
    const wrong: string[] = [];
    for (const route of authed) {
      const res = await call(t.url, route.method, samplePath(route), undefined);
      // Integration URLs carry their key as a parameter: Zulip asks for it.
      const expected =
        route.auth === 'webhook'
          ? { status: 400, code: 'REQUEST_VARIABLE_MISSING' }
          : { status: 401, code: 'UNAUTHORIZED' };
      if (res.status !== expected.status || res.code !== expected.code) {
        wrong.push(`${route.method} ${route.path}: ${JSON.stringify(res)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a wrong key: 401 INVALID_API_KEY', async () => {
    const wrong: string[] = [];
    for (const route of authed) {
      const res = await call(
        t.url,
        route.method,
        samplePath(route),
        callers.authorization('wrong_key'),
      );
      if (res.status !== 401 || res.code !== 'INVALID_API_KEY') {
        wrong.push(`${route.method} ${route.path}: ${JSON.stringify(res)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a deactivated user or bot: 401 USER_DEACTIVATED', async () => {
    const human = await quickMember(t, 'Gone Human');
    const off = await t.as('owner').delete(`/users/${human.id}`);
    expect(off.status).toBe(200);
    const botOff = await t.as('owner').delete(`/bots/${callers.ids.embedded_bot}`);
    expect(botOff.status).toBe(200);
    const wrong: string[] = [];
    for (const route of authed) {
      for (const auth of [
        basicAuth(human.email, human.apiKey),
        callers.authorization('embedded_bot'),
      ]) {
        const res = await call(t.url, route.method, samplePath(route), auth);
        if (res.status !== 401 || res.code !== 'USER_DEACTIVATED') {
          wrong.push(`${route.method} ${route.path}: ${JSON.stringify(res)}`);
        }
      }
    }
    const on = await t.as('owner').post(`/users/${callers.ids.embedded_bot}/reactivate`);
    expect(on.status).toBe(200);
    expect(wrong).toEqual([]);
  });

  it('anyone of a deactivated organization: 401 REALM_DEACTIVATED', async () => {
    const other = await startTestServer({ scheduledDelivery: false });
    try {
      const otherCallers = setUpCallers(other);
      deactivateOrganization(other.server.ctx);
      const wrong: string[] = [];
      for (const route of authed) {
        for (const who of ['owner', 'guest', 'generic_bot', 'incoming_bot'] as const) {
          const res = await call(
            other.url,
            route.method,
            samplePath(route),
            otherCallers.authorization(who),
          );
          if (res.status !== 401 || res.code !== 'REALM_DEACTIVATED') {
            wrong.push(`${who} ${route.method} ${route.path}: ${JSON.stringify(res)}`);
          }
        }
      }
      expect(wrong).toEqual([]);
      // Logging in is refused the same way; the public server settings still answer.
      const login = await call(other.url, 'POST', '/api/v1/fetch_api_key', undefined, {
        username: other.accounts.owner.email,
        password: FIXTURE_PASSWORD,
      });
      expect(login).toMatchObject({ status: 401, code: 'REALM_DEACTIVATED' });
      const settings = await call(other.url, 'GET', '/api/v1/server_settings', undefined);
      expect(settings.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('public routes answer without credentials', async () => {
    const wrong: string[] = [];
    for (const route of allRoutes.filter((r) => r.auth === 'none')) {
      const res = await call(t.url, route.method, samplePath(route), undefined);
      if (res.status === 401 || res.status >= 500) {
        wrong.push(`${route.method} ${route.path}: ${JSON.stringify(res)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

type Probe = () => Promise<{
  method: string;
  path: string;
  params?: Record<string, unknown>;
  /** Sent as multipart with a small PNG as its file part. */
  file?: boolean;
}>;

const ADMIN = '400 UNAUTHORIZED_PRINCIPAL';
const NOT_A_BOT = '400 PERMISSION_DENIED';
const WEBHOOK = '401 UNAUTHORIZED';
/** Zulip's access_user_by_id(for_admin=True): "Insufficient permission". */
const INSUFFICIENT = '400 BAD_REQUEST';
/** require_member_or_admin / human_users_only: "Not allowed for guest users", "This endpoint does not accept bot requests.". */
const NOT_ALLOWED = '400 BAD_REQUEST';
/** The channel's can_administer_channel_group (administrators by default). */
const NOT_CHANNEL_ADMIN = '400 BAD_REQUEST';

type Expected = Partial<Record<CallerName, string>>;

/** `ok` for the listed callers, `refusal` for every other human and bot. */
function only(allowed: readonly CallerName[], refusal: string): Expected {
  const row: Expected = {};
  for (const who of [...humanCallers, ...botCallers]) {
    row[who] = allowed.includes(who) ? 'ok' : refusal;
  }
  row.incoming_bot = WEBHOOK;
  return row;
}
const admins = ['owner', 'admin'] as const;
const everyone = [...humanCallers, ...botCallers];
const unique = (() => {
  let n = 0;
  return (prefix: string) => `${prefix}${++n}`;
})();

/**
 * Role-restricted endpoints. Every probe makes fresh objects, so each caller
 * meets the same situation.
 */
const table: [label: string, probe: Probe, expected: Expected][] = [
  [
    'POST /users (admin)',
    async () => ({
      method: 'POST',
      path: '/users',
      params: {
        email: `${unique('made')}@example.com`,
        password: 'a long password',
        full_name: 'Made',
      },
    }),
    only(admins, ADMIN),
  ],
  [
    'PATCH /users/{id} (admin)',
    async () => ({
      method: 'PATCH',
      path: `/users/${(await quickMember(t, 'Renamed')).id}`,
      params: { full_name: 'New Name' },
    }),
    only(admins, ADMIN),
  ],
  [
    'DELETE /users/{id} (admin)',
    async () => ({
      method: 'DELETE',
      path: `/users/${(await quickMember(t, 'Deactivated')).id}`,
    }),
    only(admins, ADMIN),
  ],
  [
    'POST /users/{id}/status (admin)',
    async () => ({
      method: 'POST',
      path: `/users/${callers.ids.member}/status`,
      params: { status_text: 'set by an admin' },
    }),
    only(admins, INSUFFICIENT),
  ],
  [
    'POST /realm/profile_fields (admin)',
    async () => ({
      method: 'POST',
      path: '/realm/profile_fields',
      params: { name: unique('Field '), field_type: 1 },
    }),
    only(admins, ADMIN),
  ],
  [
    'POST /realm/playgrounds (admin)',
    async () => ({
      method: 'POST',
      path: '/realm/playgrounds',
      params: {
        name: unique('Playground '),
        pygments_language: 'Python',
        url_template: 'https://play.example.com/?code={code}',
      },
    }),
    only(admins, ADMIN),
  ],
  [
    'POST /realm/domains (owner)',
    async () => ({
      method: 'POST',
      path: '/realm/domains',
      params: { domain: `${unique('d')}.example.org`, allow_subdomains: false },
    }),
    only(['owner'], ADMIN),
  ],
  [
    'PATCH /realm (admin)',
    async () => ({ method: 'PATCH', path: '/realm', params: { description: unique('About ') } }),
    only(admins, ADMIN),
  ],
  [
    'POST /streams/{id}/delete_topic (admin)',
    async () => {
      const topic = unique('doomed ');
      await t.as('owner').post('/messages', {
        type: 'stream',
        to: channelId,
        topic,
        content: 'to be deleted',
      });
      return {
        method: 'POST',
        path: `/streams/${channelId}/delete_topic`,
        params: { topic_name: topic },
      };
    },
    only(admins, ADMIN),
  ],
  [
    'POST /bots (members and above, humans)',
    async () => ({
      method: 'POST',
      path: '/bots',
      params: { full_name: 'Made Bot', short_name: unique('made') },
    }),
    only(['owner', 'admin', 'moderator', 'member'], NOT_ALLOWED),
  ],
  [
    'DELETE /streams/{id} (channel administrators)',
    async () => ({
      method: 'DELETE',
      path: `/streams/${createChannel(t, { name: unique('archived '), subscribers: [callers.ids.member] })}`,
    }),
    only(admins, NOT_CHANNEL_ADMIN),
  ],
  [
    'POST /user_groups/create (members and above)',
    async () => ({
      method: 'POST',
      path: '/user_groups/create',
      params: { name: unique('group '), description: 'd', members: [callers.ids.member] },
    }),
    // can_create_groups (members by default); bots may since level 496.
    only(['owner', 'admin', 'moderator', 'member', ...botCallers], INSUFFICIENT),
  ],
  [
    'PATCH /users/me/profile_data (humans)',
    async () => ({ method: 'PATCH', path: '/users/me/profile_data', params: { data: [] } }),
    only(humanCallers, NOT_ALLOWED),
  ],
  [
    'GET /realm/presence (everyone)',
    async () => ({ method: 'GET', path: '/realm/presence' }),
    only(everyone, WEBHOOK),
  ],
  [
    'POST /users/{id}/reactivate (admin)',
    async () => {
      const gone = await quickMember(t, 'Returning');
      await t.as('owner').delete(`/users/${gone.id}`);
      return { method: 'POST', path: `/users/${gone.id}/reactivate` };
    },
    only(admins, ADMIN),
  ],
  [
    'DELETE /realm/playgrounds/{id} (admin)',
    async () => {
      const made = await t.as('owner').post('/realm/playgrounds', {
        name: unique('Doomed '),
        pygments_language: 'Rust',
        url_template: 'https://play.example.com/?c={code}',
      });
      return { method: 'DELETE', path: `/realm/playgrounds/${made.body.id}` };
    },
    only(admins, ADMIN),
  ],
  [
    'PUT /bot_storage (bots)',
    async () => ({ method: 'PUT', path: '/bot_storage', params: { storage: { k: 'v' } } }),
    only(botCallers, NOT_A_BOT),
  ],
  [
    'DELETE /bot_storage (bots)',
    async () => ({ method: 'DELETE', path: '/bot_storage' }),
    only(botCallers, NOT_A_BOT),
  ],
  [
    'POST /register (everyone but incoming webhooks)',
    async () => ({ method: 'POST', path: '/register', params: { fetch_event_types: [] } }),
    only(everyone, WEBHOOK),
  ],
  [
    'POST /messages (everyone, incoming webhooks too)',
    async () => ({
      method: 'POST',
      path: '/messages',
      params: { type: 'stream', to: channelId, topic: 'matrix', content: 'hello' },
    }),
    { ...only(everyone, WEBHOOK), incoming_bot: 'ok' },
  ],
];

/** Reads open to every caller but incoming-webhook bots. */
const openReads = [
  '/users',
  '/users/me',
  '/streams',
  '/users/me/subscriptions',
  '/realm/presence',
  '/scheduled_messages',
  '/drafts',
  '/saved_snippets',
  '/reminders',
  '/realm/emoji',
  '/realm/profile_fields',
  '/attachments',
  '/users/me/alert_words',
];
for (const path of openReads) {
  table.push([
    `GET ${path} (everyone)`,
    async () => ({ method: 'GET', path }),
    only(everyone, WEBHOOK),
  ]);
}
// Zulip's require_member_or_admin: no guests, no bots.
for (const path of ['/bots', '/user_groups']) {
  table.push([
    `GET ${path} (members and above, humans)`,
    async () => ({ method: 'GET', path }),
    only(['owner', 'admin', 'moderator', 'member'], NOT_ALLOWED),
  ]);
}

table.push(
  [
    "PATCH /bots/{id} (the bot's owner and administrators)",
    async () => ({
      method: 'PATCH',
      path: `/bots/${callers.ids.generic_bot}`,
      params: { full_name: unique('Renamed bot ') },
    }),
    // access_bot_by_id: "Insufficient permission".
    only(['owner', 'admin', 'member'], INSUFFICIENT),
  ],
  [
    "POST /bots/{id}/api_key/regenerate (the bot's owner and administrators)",
    async () => ({ method: 'POST', path: `/bots/${callers.ids.outgoing_bot}/api_key/regenerate` }),
    only(['owner', 'admin', 'member'], INSUFFICIENT),
  ],
  [
    'PATCH /streams/{id} (channel administrators)',
    async () => ({
      method: 'PATCH',
      path: `/streams/${channelId}`,
      params: { description: unique('About ') },
    }),
    only(admins, NOT_CHANNEL_ADMIN),
  ],
  [
    'DELETE /users/me/subscriptions of the member (can_remove_subscribers_group)',
    async () => {
      const id = createChannel(t, { name: unique('leave '), subscribers: [callers.ids.member] });
      return {
        method: 'DELETE',
        path: '/users/me/subscriptions',
        params: { subscriptions: [await channelName(id)], principals: [callers.ids.member] },
      };
    },
    // The member leaves by themselves; others need can_remove_subscribers_group.
    only([...admins, 'member'], INSUFFICIENT),
  ],
  [
    'POST /realm/emoji/{name} (can_add_custom_emoji_group)',
    async () => ({ method: 'POST', path: `/realm/emoji/${unique('emoji_')}`, file: true }),
    // require_member_or_admin, then can_add_custom_emoji_group (members).
    only(['owner', 'admin', 'moderator', 'member'], NOT_ALLOWED),
  ],
);

async function upload(path: string, authorization: string): Promise<Outcome> {
  const png = await sharp({
    create: { width: 4, height: 4, channels: 4, background: { r: 9, g: 9, b: 9, alpha: 1 } },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new File([new Uint8Array(png)], 'e.png', { type: 'image/png' }));
  const res = await fetch(t.url + path, { method: 'POST', headers: { authorization }, body: form });
  const json = (await res.json()) as { code?: string; msg?: string };
  return { status: res.status, code: json.code, msg: json.msg };
}

async function channelName(id: number): Promise<string> {
  const res = await t.as('owner').get(`/streams/${id}`);
  return res.body.stream.name;
}

describe('role-restricted endpoints', () => {
  it.each(table)('%s', async (_label, probe, expected) => {
    const actual: Expected = {};
    for (const who of Object.keys(expected) as CallerName[]) {
      const request = await probe();
      const res = request.file
        ? await upload(`/api/v1${request.path}`, callers.authorization(who)!)
        : await call(
            t.url,
            request.method,
            `/api/v1${request.path}`,
            callers.authorization(who),
            request.params,
          );
      actual[who] = res.status === 200 ? 'ok' : `${res.status} ${res.code}`;
    }
    expect(actual).toEqual(expected);
  });
});
