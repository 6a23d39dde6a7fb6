import type { IncomingHttpHeaders } from 'node:http';
import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import type { ClientHangup } from '../events/hub.js';
import type { FileAnswer, UploadedFile } from '../shared/files.js';
import type { SerialisedFields } from '../shared/json-fields.js';
import type { Requirement } from '../shared/roles.js';
import type { ApiLink, Differences, LinkCheck } from './api-link.js';
import type { ParamShape, ParsedParams } from './params.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

/** What a handler may know about the request besides its parameters. */
export interface RequestInfo {
  /** The client's name, from its User-Agent (e.g. "ZulipPython"). */
  clientName: string;
  ip: string;
  /** Tells a long-poll when the client goes away. */
  hangup: ClientHangup;
  /** The file parts of a multipart request, in order (empty otherwise). */
  files: readonly UploadedFile[];
  headers: IncomingHttpHeaders;
  /** The body's bytes, for routes marked `rawBody` (null without a body, and on other routes). */
  rawBody: Buffer | null;
  /**
   * Cookies set in the answer must say `Secure`: the request came over TLS
   * (or through an https external URL). Every Set-Cookie writer uses this.
   */
  secureCookies: boolean;
  /** The Cookie header and the X-CSRFToken header (logging out of a browser session). */
  cookie: string | undefined;
  csrfToken: string | undefined;
}

/**
 * Fields of Zulip's JSON envelope with response headers the door adds
 * (Set-Cookie for browser sessions, one value per cookie); areas never
 * answer with this.
 */
export class AnswerWithHeaders {
  constructor(
    readonly fields: Record<string, unknown>,
    readonly headers: Record<string, string | string[]>,
  ) {}
}

/** What a handler answers: fields of Zulip's JSON envelope (as values or as JSON text), or a file. */
export type HandlerResult =
  | Record<string, unknown>
  | SerialisedFields
  | FileAnswer
  | AnswerWithHeaders;

interface BaseRoute<S extends ParamShape> {
  method: HttpMethod;
  /** Relative to /api/v1, in Fastify syntax (`:id(^\\d+)` for numeric ids). */
  path: string;
  /**
   * Served at `path` itself rather than under /api/v1 (files: /user_uploads/...,
   * /user_avatars/..., /static/...); Zulip serves these at the site root.
   */
  atRoot?: boolean;
  params: S;
  /**
   * The operation of the API description (shared/zulip-api) it serves, as
   * the description's path template with this route's method, or why it has
   * none (`undescribed(...)`, `outsideApi(...)`; see api-link.ts). The type
   * checker holds `params` to that operation's parameters.
   */
  api: ApiLink;
  /** The deliberate differences of `params` from the description's, each with why (api-link.ts). */
  differences?: Differences;
  /**
   * Who may call it, checked before the parameters are read, as Zulip's
   * decorators (require_realm_admin, require_realm_owner) check it; a list
   * is checked in order (require_member_or_admin: member, then human).
   */
  requires?: Requirement | readonly Requirement[];
  /** Exempt from the per-user (or, unauthenticated, per-address) rate limit (e.g. DELETE /events, static files). */
  rateLimitExempt?: boolean;
  /**
   * Not rate-limited at all: neither counted nor reported (no X-RateLimit-*
   * headers), as Zulip serves long-polling GET /events (see lean-events.ts).
   */
  notRateLimited?: boolean;
  /**
   * The handler is one synchronous write that may share a group commit with
   * concurrent requests (the send path; see write-batcher.ts).
   */
  groupCommit?: boolean;
  /** Incoming-webhook bots may call it (Zulip: only sending messages). */
  allowIncomingWebhooks?: boolean;
  /**
   * The body is the handler's to read, whatever its type (RequestInfo.rawBody):
   * it carries no parameters. For integration URLs, whose bodies are the
   * tools' own payloads.
   */
  rawBody?: boolean;
  /** Overrides the server's body limit (BODY_LIMIT_BYTES) for this route. */
  bodyLimit?: number;
}

/**
 * A route with credentials: an API key (HTTP Basic), or, without an
 * Authorization header, a browser session (auth/browser-session.ts; the
 * CSRF header too unless the method is GET or HEAD).
 */
export interface AuthedRoute<S extends ParamShape> extends BaseRoute<S> {
  auth?: 'user';
  handler(
    ctx: AppContext,
    user: UserRow,
    params: ParsedParams<S>,
    request: RequestInfo,
  ): HandlerResult | Promise<HandlerResult>;
}

export interface PublicRoute<S extends ParamShape> extends BaseRoute<S> {
  /** 'none': credentials are not read at all (GET /server_settings answers 200 even with wrong ones). */
  auth: 'none';
  handler(
    ctx: AppContext,
    user: null,
    params: ParsedParams<S>,
    request: RequestInfo,
  ): HandlerResult | Promise<HandlerResult>;
}

export interface WebhookRoute<S extends ParamShape> extends BaseRoute<S> {
  /**
   * 'webhook': Zulip's integration URLs: the key in the query string
   * (`api_key`), else HTTP Basic (auth/authenticateWebhook).
   */
  auth: 'webhook';
  handler(
    ctx: AppContext,
    user: UserRow,
    params: ParsedParams<S>,
    request: RequestInfo,
  ): HandlerResult | Promise<HandlerResult>;
}

export type Route<S extends ParamShape = ParamShape> =
  | AuthedRoute<S>
  | PublicRoute<S>
  | WebhookRoute<S>;

/**
 * Identity helpers that keep each route's parameter types inferred and check
 * its spec against the description's operation (api-link.ts `LinkCheck`).
 */
type Linked<
  S extends ParamShape,
  M extends HttpMethod,
  P extends string,
  A extends ApiLink,
  D extends Differences,
> = { method: M; path: P; api: A; differences?: D } & LinkCheck<S, M, P, A, D>;

export const route = <
  S extends ParamShape,
  const M extends HttpMethod,
  const P extends string,
  const A extends ApiLink,
  const D extends Differences = Record<never, string>,
>(
  def: AuthedRoute<S> & Linked<S, M, P, A, D>,
): Route => def as unknown as Route;
export const publicRoute = <
  S extends ParamShape,
  const M extends HttpMethod,
  const P extends string,
  const A extends ApiLink,
  const D extends Differences = Record<never, string>,
>(
  def: PublicRoute<S> & Linked<S, M, P, A, D>,
): Route => def as unknown as Route;
export const webhookRoute = <
  S extends ParamShape,
  const M extends HttpMethod,
  const P extends string,
  const A extends ApiLink,
  const D extends Differences = Record<never, string>,
>(
  def: WebhookRoute<S> & Linked<S, M, P, A, D>,
): Route => def as unknown as Route;
