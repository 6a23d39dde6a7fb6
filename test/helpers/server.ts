import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { userById } from '../../server/db/queries/users.js';
import type { EventHubTimings } from '../../server/events/hub.js';
import { createServer, type RunningServer, type ServerOptions } from '../../server/index.js';
import { createOrganization } from '../../server/realm/organization.js';
import { Role } from '../../server/shared/roles.js';
import { createBot } from '../../server/users/bots.js';
import { createUser } from '../../server/users/users.js';
import { expectValidResponse, hasResponseSchema } from './openapi.js';

export interface Account {
  id: number;
  email: string;
  apiKey: string;
  password: string | null;
}

export type FixtureName = 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | 'bot';

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests index into arbitrary JSON
  body: any;
}

export type Encoding = 'form' | 'query' | 'multipart';

export interface RequestOptions {
  /** Where parameters go; default: query string for GET, form body otherwise. */
  encoding?: Encoding;
  headers?: Record<string, string>;
  /** Skip OpenAPI validation (for deliberately odd responses). */
  skipSchema?: boolean;
}

type Params = Record<string, unknown>;

/**
 * Fields the spec (feature levels up to 496) adds beyond the reference
 * snapshot (level 420): the user object's is_imported_stub / is_deleted, and
 * bots' bot_type / bot_owner_id, which some snapshot schemas (GET /users/me)
 * omit.
 */
export function specNewerThanReference(key: string, value: unknown): boolean {
  if (key === 'is_imported_stub' || key === 'is_deleted') return typeof value === 'boolean';
  if (key === 'bot_type')
    return value === null || (typeof value === 'number' && value >= 1 && value <= 4);
  if (key === 'bot_owner_id') return value === null || typeof value === 'number';
  // Feature level 468: POST /register's `devices` replaced `push_devices`.
  if (key === 'devices')
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  // The spec's local echo: message events to the sending queue carry local_message_id.
  if (key === 'local_message_id') return typeof value === 'string';
  // Custom profile fields' use_for_user_matching (level 455), reported only when true.
  if (key === 'use_for_user_matching') return value === true;
  // POST /register's report reasons (Zulip 11, read by the mobile app).
  if (key === 'server_report_message_types')
    return (
      Array.isArray(value) &&
      value.every((v) => typeof v?.key === 'string' && typeof v?.name === 'string')
    );
  return false;
}

/** The Authorization header of HTTP Basic authentication with an e-mail and API key. */
export function basicAuth(email: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
}

/** A value as real clients put it on the wire: strings raw, everything else JSON. */
export function encodeValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly auth: { email: string; apiKey: string } | null,
  ) {}

  async request(
    method: string,
    endpoint: string,
    params: Params = {},
    options: RequestOptions = {},
  ): Promise<ApiResponse> {
    const encoding = options.encoding ?? (method === 'GET' ? 'query' : 'form');
    const url = new URL(`${this.baseUrl}/api/v1${endpoint}`);
    const headers: Record<string, string> = { ...options.headers };
    if (this.auth) {
      headers.authorization = basicAuth(this.auth.email, this.auth.apiKey);
    }
    let body: string | FormData | undefined;
    const entries = Object.entries(params).filter(([, v]) => v !== undefined);
    if (encoding === 'query') {
      for (const [k, v] of entries) url.searchParams.set(k, encodeValue(v));
    } else if (encoding === 'form') {
      body = new URLSearchParams(entries.map(([k, v]) => [k, encodeValue(v)])).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      const form = new FormData();
      for (const [k, v] of entries) {
        // A File (or Blob) is sent as a file part, as clients upload.
        if (v instanceof Blob) form.append(k, v);
        else form.append(k, encodeValue(v));
      }
      body = form;
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(
        `${method} ${endpoint} answered non-JSON (${response.status}): ${text.slice(0, 200)}`,
      );
    }
    if (!options.skipSchema && hasResponseSchema(method, endpoint, response.status)) {
      expectValidResponse(method, endpoint, response.status, json, {
        allowExtraKeys: ['service_feature_level'],
        ignoreDeep: specNewerThanReference,
      });
    }
    return { status: response.status, headers: response.headers, body: json };
  }

  /**
   * A request to any path of the server (not only /api/v1), with this
   * client's credentials, answered as is: for files and redirects.
   */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.auth && !headers.has('authorization')) {
      headers.set('authorization', basicAuth(this.auth.email, this.auth.apiKey));
    }
    return fetch(new URL(path, this.baseUrl), { redirect: 'manual', ...init, headers });
  }

  get = (endpoint: string, params?: Params, options?: RequestOptions) =>
    this.request('GET', endpoint, params, options);
  post = (endpoint: string, params?: Params, options?: RequestOptions) =>
    this.request('POST', endpoint, params, options);
  patch = (endpoint: string, params?: Params, options?: RequestOptions) =>
    this.request('PATCH', endpoint, params, options);
  put = (endpoint: string, params?: Params, options?: RequestOptions) =>
    this.request('PUT', endpoint, params, options);
  delete = (endpoint: string, params?: Params, options?: RequestOptions) =>
    this.request('DELETE', endpoint, params, options);
}

export interface TestServer {
  url: string;
  server: RunningServer;
  dataDir: string;
  accounts: Record<FixtureName, Account>;
  /** A client authenticated as a fixture user (or any account). */
  as(who: FixtureName | Account): ApiClient;
  /** A client without credentials. */
  anonymous(): ApiClient;
  /** Creates another member with a password. */
  createMember(name: string, role?: number): Promise<Account>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  rateLimit?: boolean;
  demo?: boolean;
  now?: () => number;
  eventTimings?: Partial<EventHubTimings>;
  /** Opens /trpc and /admin/ (see ServerOptions.adminToken). */
  adminToken?: string;
  /** See ServerOptions.scheduledDelivery. */
  scheduledDelivery?: string | false;
  /** See ServerOptions.unclaimedUploadCleanup. */
  unclaimedUploadCleanup?: string | false;
  /** See ServerOptions.searchIndexing. */
  searchIndexing?: string | false;
  /** See ServerOptions.requestTimeoutMs. */
  requestTimeoutMs?: number;
  /** See ServerOptions.topicDeletion. */
  topicDeletion?: { batchSize?: number; timeBudgetMs?: number };
  /** See ServerOptions.outgoingWebhookTimeoutMs. */
  outgoingWebhookTimeoutMs?: number;
  /** See ServerOptions.connectionLimits. */
  connectionLimits?: ServerOptions['connectionLimits'];
  /** See ServerOptions.host (default loopback; tests reach only addresses they own). */
  host?: string;
  /** See ServerOptions.https (the URL is then https://127.0.0.1:port). */
  https?: boolean;
  /** See ServerOptions.tlsCertificate. */
  tlsCertificate?: ServerOptions['tlsCertificate'];
  /** See ServerOptions.diskSpace. */
  diskSpace?: ServerOptions['diskSpace'];
  /** See ServerOptions.trustedProxies. */
  trustedProxies?: readonly string[];
}

export const FIXTURE_PASSWORD = 'correct horse battery staple';

/**
 * The real server on an ephemeral port with a fresh data directory and one
 * fixture account per role (plus a generic bot owned by the member).
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-test-'));
  const server = await createServer({
    dataDir,
    port: 0,
    ...(options.host ? { host: options.host } : {}),
    rateLimit: options.rateLimit ?? false,
    demo: options.demo ?? false,
    now: options.now,
    eventTimings: options.eventTimings,
    adminToken: options.adminToken,
    scheduledDelivery: options.scheduledDelivery,
    unclaimedUploadCleanup: options.unclaimedUploadCleanup,
    searchIndexing: options.searchIndexing,
    requestTimeoutMs: options.requestTimeoutMs,
    topicDeletion: options.topicDeletion,
    outgoingWebhookTimeoutMs: options.outgoingWebhookTimeoutMs,
    connectionLimits: options.connectionLimits,
    https: options.https,
    tlsCertificate: options.tlsCertificate,
    diskSpace: options.diskSpace,
    trustedProxies: options.trustedProxies,
  });
  const { ctx } = server;
  const owner = await createOrganization(ctx, {
    name: 'Test Org',
    emailDomain: 'test.hearth',
    ownerEmail: 'owner@example.com',
    ownerName: 'Olivia Owner',
    ownerPassword: FIXTURE_PASSWORD,
  });

  const makeAccount = (id: number, password: string | null): Account => {
    const row = userById(ctx.db, id)!;
    return { id, email: row.delivery_email, apiKey: row.api_key, password };
  };
  const create = async (email: string, fullName: string, role: number) => {
    const { user_id } = await createUser(ctx, null, {
      email,
      password: FIXTURE_PASSWORD,
      fullName,
      role,
    });
    return makeAccount(user_id, FIXTURE_PASSWORD);
  };

  const accounts = {
    owner: makeAccount(owner.user_id, FIXTURE_PASSWORD),
    admin: await create('admin@example.com', 'Ada Admin', Role.administrator),
    moderator: await create('moderator@example.com', 'Mo Moderator', Role.moderator),
    member: await create('member@example.com', 'Mel Member', Role.member),
    guest: await create('guest@example.com', 'Gus Guest', Role.guest),
  } as Record<FixtureName, Account>;
  const bot = createBot(ctx, userById(ctx.db, accounts.member.id)!, {
    fullName: 'Test Bot',
    shortName: 'test',
    botType: 1,
  });
  accounts.bot = makeAccount(bot.user_id, null);

  let counter = 0;
  return {
    url: server.url,
    server,
    dataDir,
    accounts,
    as: (who) => {
      const account = typeof who === 'string' ? accounts[who] : who;
      return new ApiClient(server.url, { email: account.email, apiKey: account.apiKey });
    },
    anonymous: () => new ApiClient(server.url, null),
    async createMember(name, role = Role.member) {
      counter++;
      return create(`extra${counter}@example.com`, name, role);
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
