/**
 * Every route, as every kind of caller, with missing, wrong-typed, oversized,
 * deeply nested, duplicated and hostile parameters in every encoding clients
 * use: the answer is never a 5xx, an error is Zulip's JSON envelope with a
 * `code` (file routes may answer a plain 4xx), a rejected request leaves every
 * table as it was, and the server keeps answering. Seeded: each run sends the
 * same requests, and a failure names the one that broke the rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserActive, userById } from '../../server/db/queries/users.js';
import type { Route } from '../../server/http/route.js';
import { allRoutes } from '../../server/http/routes/index.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type Answer, problemWith } from './answer-rules.js';
import { allCallers, type CallerName, type Callers, setUpCallers } from './callers.js';
import { ChangeWatch } from './db-digest.js';
import {
  hostileJsonLiterals,
  hostileNumericSegments,
  hostileTextSegments,
  hostileTexts,
  pick,
  seededRandom,
} from './hostile-values.js';

// FUZZ_SEED explores other cases; the suite always runs the default.
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_2026);
/** Requests per route and caller (callers that cannot authenticate get fewer). */
const CASES_PER_CALLER = 3;
const CASES_UNAUTHENTICATED = 2;

let t: TestServer;
let callers: Callers;
let watch: ChangeWatch;
/** Real objects for path ids, so some requests get past "no such object". */
const realIds: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false, outgoingWebhookTimeoutMs: 200 });
  callers = setUpCallers(t);
  watch = new ChangeWatch(t.server.ctx.db);
  const target = await quickMember(t, 'Fuzz Target');
  realIds.user_id = target.id;
  realIds.muted_user_id = target.id;
  realIds.stream_id = createChannel(t, {
    name: 'fuzzed',
    subscribers: [t.accounts.owner.id, t.accounts.member.id, target.id],
  });
  const sent = await t.as('owner').post('/messages', {
    type: 'stream',
    to: 'fuzzed',
    topic: 'fuzz',
    content: 'target of the fuzz',
  });
  realIds.message_id = sent.body.id;
});
afterAll(() => t.close());

type Encoding = 'query' | 'form' | 'multipart' | 'json';
const encodings: readonly Encoding[] = ['query', 'form', 'multipart', 'json'];

interface FuzzRequest {
  method: string;
  path: string;
  encoding: Encoding;
  /** Parameters in order; a name may repeat (duplicated parameters). */
  fields: [string, string][];
  /** For the json encoding: raw JSON text of the whole body, when hand-made. */
  rawJson?: string;
}

const pathParam = /:([A-Za-z_]+)(\([^)]*\))?|\*/g;

/** The route's path with each parameter replaced by a hostile or real segment. */
function fillPath(route: Route, random: () => number): string {
  const filled = route.path.replace(pathParam, (whole, name: string | undefined, pattern) => {
    if (whole === '*') return pick(random, ['x', 'a/b/c.txt', ...hostileTextSegments]);
    if (pattern) {
      const real = realIds[name!];
      if (real !== undefined && random() < 0.4) return String(real);
      return pick(random, hostileNumericSegments);
    }
    return pick(random, hostileTextSegments);
  });
  return route.atRoot ? filled : `/api/v1${filled}`;
}

/** A value of the parameter's own kind, so one hostile neighbour is what fails. */
function plausible(kind: string): string {
  switch (kind) {
    case 'integer':
      return '1';
    case 'boolean':
      return 'true';
    case 'json':
      return '[]';
    default:
      return 'hello';
  }
}

type Shape = 'missing' | 'all_hostile' | 'one_hostile' | 'duplicated' | 'json_literals';
const shapes: readonly Shape[] = [
  'missing',
  'all_hostile',
  'one_hostile',
  'duplicated',
  'json_literals',
];

function makeRequest(route: Route, random: () => number): FuzzRequest {
  const names = Object.keys(route.params).filter((n) => n !== '*' && !route.path.includes(`:${n}`));
  const shape = pick(random, shapes);
  const encoding =
    shape === 'json_literals'
      ? 'json'
      : route.method === 'GET'
        ? pick(random, ['query', 'query', 'form', 'json'] as const)
        : pick(random, encodings);
  const request: FuzzRequest = {
    method: route.method,
    path: fillPath(route, random),
    encoding,
    fields: [],
  };
  const extra: [string, string] = [
    pick(random, ['__proto__', 'constructor', 'a\u0000b', 'x'.repeat(5_000), 'api_key']),
    pick(random, hostileTexts),
  ];
  switch (shape) {
    case 'missing':
      // Required parameters left out; only a stray one sent.
      if (random() < 0.5) request.fields.push(extra);
      break;
    case 'all_hostile':
      for (const name of names) request.fields.push([name, pick(random, hostileTexts)]);
      request.fields.push(extra);
      break;
    case 'one_hostile': {
      const victim = names.length > 0 ? pick(random, names) : undefined;
      for (const name of names) {
        const kind = route.params[name]!.kind;
        request.fields.push([name, name === victim ? pick(random, hostileTexts) : plausible(kind)]);
      }
      break;
    }
    case 'duplicated':
      for (const name of names) {
        request.fields.push([name, pick(random, hostileTexts)]);
        request.fields.push([name, plausible(route.params[name]!.kind)]);
      }
      break;
    case 'json_literals': {
      const members = [...names, extra[0]].map(
        (name) => `${JSON.stringify(name)}: ${pick(random, hostileJsonLiterals)}`,
      );
      // A key given twice, and sometimes a body that is not an object at all.
      if (names[0])
        members.push(`${JSON.stringify(names[0])}: ${pick(random, hostileJsonLiterals)}`);
      request.rawJson =
        random() < 0.15 ? pick(random, hostileJsonLiterals) : `{${members.join(', ')}}`;
      break;
    }
  }
  return request;
}

async function send(request: FuzzRequest, authorization: string | undefined): Promise<Answer> {
  const url = new URL(t.url + request.path);
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  let body: string | FormData | undefined;
  switch (request.encoding) {
    case 'query':
      for (const [k, v] of request.fields) url.searchParams.append(k, v);
      break;
    case 'form':
      body = new URLSearchParams(request.fields).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
      break;
    case 'multipart': {
      const form = new FormData();
      for (const [k, v] of request.fields) form.append(k, v);
      body = form;
      break;
    }
    case 'json':
      body =
        request.rawJson ??
        `{${request.fields.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`;
      headers['content-type'] = 'application/json';
      break;
  }
  // GET and DELETE bodies are legal HTTP; fetch only refuses them for GET.
  const method = request.method;
  const init: RequestInit = { method, headers, signal: AbortSignal.timeout(15_000) };
  if (body !== undefined && method !== 'GET') init.body = body;
  else if (body !== undefined) {
    // A GET with a body: the parameters go to the query string instead.
    for (const [k, v] of request.fields) url.searchParams.append(k, v);
    delete headers['content-type'];
  }
  const response = await fetch(url, { ...init, redirect: 'manual' });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text };
}

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.path.slice(0, 120)} [${r.encoding}] ${JSON.stringify(
    r.rawJson?.slice(0, 200) ?? r.fields.map(([k, v]) => [k.slice(0, 40), v.slice(0, 60)]),
  )}`;

async function serverAnswers(): Promise<boolean> {
  const res = await fetch(`${t.url}/api/v1/server_settings`);
  return res.status === 200;
}

/** Answers by status and code: evidence that the requests reach the handlers. */
const answered = new Map<string, number>();
function tally(answer: Answer): void {
  const code = /"code":"([A-Z_]+)"/.exec(answer.text)?.[1] ?? '';
  const key = `${answer.status} ${code}`.trim();
  answered.set(key, (answered.get(key) ?? 0) + 1);
}

/**
 * Data exports (POST /export/realm) are written in the background and mark
 * their row when done: wait for them, so that their writes are not taken
 * for a refused request's.
 */
async function exportsSettled(): Promise<void> {
  const running = t.server.ctx.db.prepare(
    'SELECT COUNT(*) FROM realm_exports WHERE date_succeeded IS NULL AND date_failed IS NULL AND date_deleted IS NULL',
  );
  for (let waited = 0; (running.pluck().get() as number) > 0 && waited < 30_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function keepActive(userId: number): void {
  if (userById(t.server.ctx.db, userId)?.is_active === 0) {
    setUserActive(t.server.ctx.db, userId, true);
  }
}

const routeLabel = (route: Route, index: number) =>
  `${index} ${route.method} ${route.atRoot ? '' : '/api/v1'}${route.path}`;

describe('fuzzing every route as every caller', () => {
  it('covers every route, file routes at the root included', () => {
    expect(allRoutes.length).toBeGreaterThan(100);
    expect(allRoutes.some((r) => r.atRoot)).toBe(true);
  });

  it.each(allRoutes.map((route, index) => [routeLabel(route, index), route, index] as const))(
    '%s',
    async (_label, route, index) => {
      const random = seededRandom(SEED + index * 7919);
      const problems: string[] = [];
      for (const caller of allCallers) {
        const unauthenticated = caller === 'anonymous' || caller === 'wrong_key';
        // A public route ignores credentials: once is enough.
        if (route.auth === 'none' && caller !== 'anonymous' && caller !== 'member') continue;
        const cases = unauthenticated ? CASES_UNAUTHENTICATED : CASES_PER_CALLER;
        for (let i = 0; i < cases; i++) {
          const request = makeRequest(route, random);
          // DELETE /users/me deactivates its caller (a person's bots too):
          // bring everyone back first, or later requests would stop at authentication.
          for (const id of Object.values(callers.ids)) keepActive(id);
          await exportsSettled();
          watch.before();
          const answer = await send(request, callers.authorization(caller as CallerName));
          tally(answer);
          const changed = answer.status >= 400 && watch.changed();
          const problem = problemWith(route, answer, changed);
          if (problem) problems.push(`${caller}: ${describeRequest(request)}\n    ${problem}`);
        }
      }
      expect(await serverAnswers()).toBe(true);
      expect(problems).toEqual([]);
    },
    // Generous: the machine may be shared with the rest of the suite.
    60_000,
  );

  it('other methods on every path answer in the envelope, never a 5xx', async () => {
    const problems: string[] = [];
    const methods = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'PROPFIND'];
    const paths = new Set(allRoutes.map((r) => fillPath(r, seededRandom(SEED))));
    for (const path of paths) {
      for (const method of methods) {
        const res = await fetch(t.url + path, {
          method,
          headers: { authorization: callers.authorization('member')! },
          redirect: 'manual',
        });
        const answer = {
          status: res.status,
          contentType: res.headers.get('content-type') ?? '',
          text: await res.text(),
        };
        if (method === 'HEAD') {
          if (answer.status >= 500) problems.push(`HEAD ${path}: ${answer.status}`);
          continue;
        }
        const problem = problemWith({ atRoot: !path.startsWith('/api/') }, answer, false);
        if (problem) problems.push(`${method} ${path}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('got past authentication and parameter parsing often enough to mean something', () => {
    const count = (key: string) => answered.get(key) ?? 0;
    // Successes (hostile values a route rightly accepts, e.g. as text) and
    // every layer's refusals: authentication, routing, parameters, rules.
    expect(count('200')).toBeGreaterThan(300);
    expect(count('400 BAD_REQUEST')).toBeGreaterThan(1000);
    expect(count('400 REQUEST_VARIABLE_MISSING')).toBeGreaterThan(100);
    expect(count('401 UNAUTHORIZED')).toBeGreaterThan(50);
    expect(count('401 INVALID_API_KEY')).toBeGreaterThan(50);
    expect(count('404 NOT_FOUND')).toBeGreaterThan(100);
    expect(count('400 UNAUTHORIZED_PRINCIPAL')).toBeGreaterThan(20);
  });
});
