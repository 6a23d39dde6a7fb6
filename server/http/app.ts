import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import formbody from '@fastify/formbody';
import { create as contentDisposition } from 'content-disposition';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  authenticate,
  authenticateBrowserSession,
  authenticateWebhook,
  CSRF_HEADER,
  checkIncomingWebhookAccess,
  hasSessionCookie,
} from '../auth/index.js';
import type { AppContext } from '../core/context.js';
import { ApiError, badRequest, notFound, requestTooLarge } from '../core/errors.js';
import { defaultRules, headersFor, type RateLimiter, type RateStatus } from '../core/rate-limit.js';
import type { UserRow } from '../db/queries/users.js';
import { FileAnswer } from '../shared/files.js';
import { SerialisedFields } from '../shared/json-fields.js';
import { BODY_LIMIT_BYTES } from '../shared/limits.js';
import { requireRole } from '../shared/roles.js';
import type { ServerTls } from '../tls/index.js';
import { checkHosts } from './allowed-hosts.js';
import { parseByteRange } from './byte-range.js';
import { clientAddressResolver, rawClientAddressResolver } from './client-address.js';
import { type ConnectionLimits, capConnections } from './connection-cap.js';
import { ConnectionHangup } from './hangup.js';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';
import { LeanEvents } from './lean-events.js';
import { addMultipartParser, isMultipart } from './multipart-body.js';
import { jsonTooDeep, parseParams, tooDeepMessage } from './params.js';
import { settleUnreadBody } from './refused-body.js';
import { AnswerWithHeaders, type RequestInfo, type Route } from './route.js';
import { addHttpsHooks, listenForTls, secureCookies, type TlsListener } from './tls-listener.js';

export const API_PREFIX = '/api/v1';

export interface HttpAppOptions {
  ctx: AppContext;
  routes: Route[];
  rateLimiter: RateLimiter;
  /** How long a request's headers and body may take to arrive (default 60 s). */
  requestTimeoutMs?: number;
  /** Connections open at once (see connection-cap.ts); none when absent. */
  connectionLimits?: ConnectionLimits;
  /** Serve HTTPS on the same port (tls-listener.ts); absent: plain HTTP only. */
  tls?: { server: ServerTls; plainOnLoopback: boolean };
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

type ClientErrorAnswer = [status: number, reason: string, msg: string, code: string];

/** Answers to requests Node's HTTP parser gave up on, by error code. */
const clientErrors: Record<string, ClientErrorAnswer> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'Request headers or URL too large',
    'REQUEST_TOO_LARGE',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'Request timed out before it fully arrived',
    'REQUEST_TIMEOUT',
  ],
};
const malformedRequest: ClientErrorAnswer = [
  400,
  'Bad Request',
  'Malformed HTTP request',
  'BAD_REQUEST',
];

/** The request's parameters from the query string, the body and the path, body winning. */
function collectRawParams(request: FastifyRequest): Map<string, string> {
  const raw = new Map<string, string>();
  addRawParams(raw, request.query);
  addRawParams(raw, request.body);
  addRawParams(raw, request.params);
  return raw;
}

/** Adds one source's parameters (the last of repeated ones). */
function addRawParams(raw: Map<string, string>, source: unknown): void {
  if (!source || typeof source !== 'object' || Buffer.isBuffer(source)) return;
  for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last === undefined) continue;
    if (Buffer.isBuffer(last)) continue; // uploaded files are read by their endpoint
    raw.set(key, typeof last === 'string' ? last : JSON.stringify(last));
  }
}

/** A query-string value as a string (the last of repeated ones). */
function lastValue(value: unknown): string | undefined {
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last : undefined;
}
/** Zulip's Client.name is at most 30 characters. */
const MAX_CLIENT_NAME = 30;

/** "ZulipPython/0.9.1 (Debian; 12)" → "ZulipPython", the name Zulip records as the client. */
export function clientNameFromUserAgent(userAgent: string | undefined): string {
  if (!userAgent) return 'Unspecified';
  const name = userAgent.trim().split(/[/ ]/)[0];
  return name || 'Unspecified';
}

function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(error.headers).send(error.toJSON());
}

/**
 * A file answer. Uploads are hostile by assumption: the type is never sniffed
 * by the browser and nothing from them may run as this origin's page.
 */
function sendFile(
  reply: FastifyReply,
  answer: FileAnswer,
  rangeHeader: string | undefined,
): FastifyReply {
  const { body, contentType, disposition, cacheControl, status, headers } = answer.init;
  // A file may have gone since the handler looked (DELETE /attachments at the same moment).
  const size = Buffer.isBuffer(body)
    ? body.length
    : statSync(body.path, { throwIfNoEntry: false })?.size;
  if (size === undefined) return sendError(reply, new ApiError('File not found.', { status: 404 }));
  reply
    .code(status ?? 200)
    .header('Content-Type', contentType)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    .header('Cache-Control', cacheControl ?? 'private, max-age=3600');
  if (disposition) {
    const { type, fileName } = disposition;
    reply.header(
      'Content-Disposition',
      fileName === undefined ? type : contentDisposition(fileName, { type }),
    );
  }
  if (headers) reply.headers(headers);
  if (Buffer.isBuffer(body)) return reply.send(body);
  reply.header('Accept-Ranges', 'bytes');
  const range = (status ?? 200) === 200 ? parseByteRange(rangeHeader, size) : null;
  if (range === 'unsatisfiable') {
    return reply.code(416).header('Content-Range', `bytes */${size}`).send(Buffer.alloc(0));
  }
  if (range) {
    return reply
      .code(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
      .header('Content-Length', range.end - range.start + 1)
      .send(createReadStream(body.path, range));
  }
  return reply.header('Content-Length', size).send(createReadStream(body.path));
}

/**
 * Fastify's own errors (bad JSON, too large, ...) in Zulip's envelope. Errors
 * raised before the handler ran come from reading the request (e.g. busboy on
 * a broken multipart body, which sets no status): they are the client's.
 */
function toApiError(error: unknown, beforeHandler = false): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as { statusCode?: number; code?: string; message?: string };
  if (e.statusCode === 413 || e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return requestTooLarge();
  const clientError =
    typeof e.statusCode === 'number' ? e.statusCode >= 400 && e.statusCode < 500 : beforeHandler;
  if (clientError) return badRequest(`Malformed request: ${e.message || 'invalid body'}`);
  return new ApiError('Internal server error', { code: 'INTERNAL_SERVER_ERROR', status: 500 });
}

/** A header's value; a repeated header is as good as none. */
const headerText = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/**
 * The user a request acts as (null for routes without credentials), with
 * its rate-limit standing; throws the error that refuses it.
 */
function admitCaller(
  ctx: AppContext,
  rateLimiter: RateLimiter,
  def: Route,
  request: FastifyRequest,
  clientAddress: string,
): { user: UserRow | null; rate: RateStatus | null } {
  if (def.auth === 'none') {
    const key = `ip:${clientAddress}`;
    const rate = def.rateLimitExempt
      ? rateLimiter.peek(key, defaultRules.unauthenticatedIp)
      : rateLimiter.hit(key, defaultRules.unauthenticatedIp);
    return { user: null, rate };
  }
  const { authorization, cookie } = request.headers;
  // An Authorization header wins: API clients never depend on cookies.
  const user =
    def.auth === 'webhook'
      ? authenticateWebhook(
          ctx,
          lastValue((request.query as Record<string, unknown>).api_key),
          authorization,
          clientAddress,
        )
      : authorization === undefined && hasSessionCookie(cookie)
        ? authenticateBrowserSession(ctx, {
            cookie,
            method: request.method,
            csrfToken: headerText(request.headers[CSRF_HEADER]),
          })
        : authenticate(ctx, authorization, clientAddress);
  checkIncomingWebhookAccess(user, def.allowIncomingWebhooks === true);
  if (def.notRateLimited) return { user, rate: null };
  const key = `user:${user.id}`;
  const rate = def.rateLimitExempt
    ? rateLimiter.peek(key, defaultRules.authenticatedUser)
    : rateLimiter.hit(key, defaultRules.authenticatedUser);
  return { user, rate };
}

export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const { ctx, routes, rateLimiter } = options;
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const clientAddressOf = clientAddressResolver(ctx.config.trustedProxies);
  /** Requests whose handler has started; errors of the others came from parsing. */
  const handled = new WeakSet<FastifyRequest>();
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    schemaController: lazySchemaCompilers,
    // Unparsable URLs (e.g. a bad %-escape) get the JSON envelope too.
    frameworkErrors: (error, _request, reply) => {
      sendError(reply, badRequest(`Malformed request: ${error.message}`));
    },
    // Requests Node's parser rejects (oversized headers or URL, garbage) never
    // reach a route, nor do those that take longer than requestTimeout to
    // arrive; answer them in the JSON envelope too.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, reason, msg, code] = clientErrors[error.code ?? ''] ?? malformedRequest;
      const body = JSON.stringify({ result: 'error', msg, code });
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${reason}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
    // Headers and body must arrive within this, so a slow or stalled client
    // cannot hold a connection forever. Node stops the clock once a request
    // has fully arrived: long-polls (held open up to the heartbeat) are not cut.
    requestTimeout,
    http: {
      // Node ignores requestTimeout while headersTimeout (default 60 s) exceeds it.
      requestTimeout,
      headersTimeout: requestTimeout,
      // How often Node looks for expired requests (its default is 30 s).
      connectionsCheckingInterval: Math.max(50, Math.min(5_000, requestTimeout / 4)),
      // A missing Host is answered by checkHosts, in the JSON envelope.
      requireHostHeader: false,
    },
    keepAliveTimeout: 75_000,
    logger: false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
  });

  const tlsListener: TlsListener | null = options.tls
    ? listenForTls(app.server, {
        tls: options.tls.server,
        plainOnLoopback: options.tls.plainOnLoopback,
        handshakeTimeoutMs: requestTimeout,
      })
    : null;
  if (options.connectionLimits) capConnections(app.server, options.connectionLimits, ctx.log);
  const allowedHosts = checkHosts(app, ctx);
  if (tlsListener) {
    addHttpsHooks(app, tlsListener, ctx.config);
    // Connections still handshaking hold no request; close() need not wait for them.
    app.addHook('preClose', async () => tlsListener.destroyPending());
  }
  await app.register(formbody);
  const multipartBodies = addMultipartParser(app, ctx);
  // Fastify's own JSON parser, after a nesting check: collectRawParams re-encodes
  // values with the recursive JSON.stringify.
  const parseJsonBody = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (jsonTooDeep(text)) {
      done(badRequest(`Malformed request: ${tooDeepMessage('JSON body')}`), undefined);
      return;
    }
    parseJsonBody(request, text, done);
  });
  // Bodies of other types carry no parameters for this API; read and ignore them.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error, !handled.has(request));
    if (apiError.status >= 500) ctx.log.error(`${request.method} ${request.url} failed`, error);
    return sendError(reply, apiError);
  });
  // Every answer, refusals before or while the body arrives included.
  // (Callback style: a promise per response is measurable on the send path.)
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete) return done(null, payload);
    settleUnreadBody(request.raw, reply.raw).then(() => done(null, payload));
  });

  app.setNotFoundHandler((_request, reply) => sendError(reply, notFound()));

  // Routes that read their own bodies (integration URLs) get the bytes, whatever
  // the type, from a scope without the parameter-reading parsers above.
  let rawBodyScope: FastifyInstance = app;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    rawBodyScope = scope;
  });

  /** Who is calling, found before the body is read (null: a route without credentials). */
  const callers = new WeakMap<FastifyRequest, UserRow | null>();
  /** Refusals (credentials, rate limits) that wait until the body has been read. */
  const refusals = new WeakMap<FastifyRequest, ApiError>();

  for (const def of routes) {
    (def.rawBody ? rawBodyScope : app).route({
      method: def.method,
      url: def.atRoot ? def.path : API_PREFIX + def.path,
      bodyLimit: def.bodyLimit,
      // Credentials and rate limits are checked as soon as the headers are in.
      // A refused form is answered then, its body never parsed: forms carry
      // uploads (four files of 25 MiB). Other bodies Fastify reads whole
      // within BODY_LIMIT_BYTES, so their refusal waits for the body, keeping
      // the order clients see: an unreadable body is named before credentials.
      onRequest: (request, reply, done) => {
        let admitted: ReturnType<typeof admitCaller>;
        try {
          admitted = admitCaller(ctx, rateLimiter, def, request, clientAddressOf(request));
        } catch (err) {
          if (isMultipart(request)) {
            // Answered here; `done` is not called, so nothing further runs.
            sendError(reply, toApiError(err));
            return;
          }
          refusals.set(request, toApiError(err));
          done();
          return;
        }
        callers.set(request, admitted.user);
        if (admitted.rate) reply.headers(headersFor(admitted.rate));
        done();
      },
      handler: async (request, reply) => {
        handled.add(request);
        const refusal = refusals.get(request);
        if (refusal) return sendError(reply, refusal);
        const form = multipartBodies.filesOf(request);
        const info: RequestInfo = {
          clientName: clientNameFromUserAgent(request.headers['user-agent']),
          ip: clientAddressOf(request),
          files: form?.files ?? [],
          hangup: new ConnectionHangup(request.raw, reply.raw),
          headers: request.headers,
          rawBody: def.rawBody && Buffer.isBuffer(request.body) ? request.body : null,
          secureCookies: secureCookies(request, ctx.config),
          cookie: request.headers.cookie,
          csrfToken: headerText(request.headers[CSRF_HEADER]),
        };
        const user = callers.get(request) ?? null;

        if (def.requires !== undefined && user !== null) {
          for (const requirement of [def.requires].flat()) requireRole(user, requirement);
        }
        const raw = collectRawParams(request);
        // Zulip's get_client_name: a `client` parameter names the client before the User-Agent does.
        const client = raw.get('client');
        if (client !== undefined && client !== '')
          info.clientName = client.slice(0, MAX_CLIENT_NAME);
        const { params, ignored } = parseParams(def.params, raw);
        const handler = def.handler as (...args: unknown[]) => unknown;
        let result: unknown;
        form?.hold();
        try {
          result = def.groupCommit
            ? await ctx.batch(() => handler(ctx, user, params, info))
            : await handler(ctx, user, params, info);
        } finally {
          form?.release();
        }
        if (result instanceof FileAnswer) return sendFile(reply, result, request.headers.range);
        if (result instanceof AnswerWithHeaders) {
          reply.headers(result.headers);
          result = result.fields;
        }
        if (result instanceof SerialisedFields) {
          const extra =
            ignored.length > 0
              ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored.sort())}`
              : '';
          return reply
            .code(200)
            .type('application/json; charset=utf-8')
            .send(`{"result":"success","msg":"",${result.text}${extra}}`);
        }
        const body: Record<string, unknown> = { result: 'success', msg: '', ...(result as object) };
        if (ignored.length > 0) body.ignored_parameters_unsupported = ignored.sort();
        return reply.code(200).send(body);
      },
    });
  }

  serveLeanEvents(
    app,
    new LeanEvents({
      ctx,
      allowedHosts,
      tls: tlsListener ? { listener: tlsListener, config: ctx.config } : null,
      clientAddressOf: rawClientAddressResolver(ctx.config.trustedProxies),
    }),
  );
  return app;
}

/** The lean path of each app, for the request log (request-log.ts). */
const leanPaths = new WeakMap<FastifyInstance, LeanEvents>();

export const leanEventsOf = (app: FastifyInstance) => leanPaths.get(app);

/**
 * Puts the lean long-poll path (lean-events.ts) in front of Fastify: Node's
 * requests reach Fastify's handler only when the lean path leaves them.
 */
function serveLeanEvents(app: FastifyInstance, lean: LeanEvents): void {
  const [fastifyHandler, ...others] = app.server.listeners('request') as RequestListener[];
  if (!fastifyHandler || others.length > 0)
    throw new Error('expected Fastify as the one request listener');
  app.server.removeListener('request', fastifyHandler);
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!lean.serve(request, response)) fastifyHandler(request, response);
  });
  app.addHook('preClose', (done) => {
    lean.close();
    done();
  });
  leanPaths.set(app, lean);
}
