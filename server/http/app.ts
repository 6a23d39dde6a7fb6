import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/queries/users.js';
import { ApiError, badRequest, notFound, requestTooLarge } from '../errors.js';
import { authenticate } from './auth.js';
import { jsonTooDeep, parseParams, tooDeepMessage } from './params.js';
import { defaultRules, headersFor, type RateLimiter, type RateStatus } from './rate-limit.js';
import type { RequestInfo, Route } from './route.js';

export const API_PREFIX = '/api/v1';
/** Message content is capped at 10,000 characters; uploads have their own limit. */
const BODY_LIMIT_BYTES = 4 * 1024 * 1024;

export interface HttpAppOptions {
  ctx: AppContext;
  routes: Route[];
  rateLimiter: RateLimiter;
}

/**
 * The request's parameters from the query string, the body and the path, body
 * winning. Multipart fields escape Fastify's body limit (busboy truncates them
 * silently), so their total is checked here.
 */
function collectRawParams(request: FastifyRequest): Map<string, string> {
  const raw = new Map<string, string>();
  let bodyBytes = 0;
  const add = (source: unknown, fromBody = false) => {
    if (!source || typeof source !== 'object' || Buffer.isBuffer(source)) return;
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
      const last = Array.isArray(value) ? value[value.length - 1] : value;
      if (last === undefined) continue;
      if (Buffer.isBuffer(last)) continue; // uploaded files are read by their endpoint
      const text = typeof last === 'string' ? last : JSON.stringify(last);
      if (fromBody) bodyBytes += Buffer.byteLength(key) + Buffer.byteLength(text);
      raw.set(key, text);
    }
  };
  add(request.query);
  add(request.body, true);
  if (request.isMultipart() && bodyBytes >= BODY_LIMIT_BYTES) throw requestTooLarge();
  add(request.params);
  return raw;
}

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

export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const { ctx, routes, rateLimiter } = options;
  /** Requests whose handler has started; errors of the others came from parsing. */
  const handled = new WeakSet<FastifyRequest>();
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    // Unparsable URLs (e.g. a bad %-escape) get the JSON envelope too.
    frameworkErrors: (error, _request, reply) => {
      sendError(reply, badRequest(`Malformed request: ${error.message}`));
    },
    // Requests Node's parser rejects (oversized headers or URL, garbage) never
    // reach a route; answer them in the JSON envelope too.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
      const status = tooLarge ? 431 : 400;
      const body = JSON.stringify({
        result: 'error',
        msg: tooLarge ? 'Request headers or URL too large' : 'Malformed HTTP request',
        code: tooLarge ? 'REQUEST_TOO_LARGE' : 'BAD_REQUEST',
      });
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
    // Long-polls last up to the heartbeat; leave headroom.
    requestTimeout: 0,
    keepAliveTimeout: 75_000,
    logger: false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
  });

  await app.register(formbody);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: 25 * 1024 * 1024, fields: 1000, fieldSize: BODY_LIMIT_BYTES },
  });
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

  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error, !handled.has(request));
    if (apiError.status >= 500) ctx.log.error(`${request.method} ${request.url} failed`, error);
    return sendError(reply, apiError);
  });

  app.setNotFoundHandler((_request, reply) => sendError(reply, notFound()));

  for (const def of routes) {
    app.route({
      method: def.method,
      url: API_PREFIX + def.path,
      handler: async (request, reply) => {
        handled.add(request);
        let abort: AbortController | undefined;
        const info: RequestInfo = {
          clientName: clientNameFromUserAgent(request.headers['user-agent']),
          ip: request.ip,
          // Made on first use: only long-polls need it, and aborting costs a DOMException.
          get signal() {
            if (!abort) {
              const controller = new AbortController();
              abort = controller;
              if (request.raw.destroyed || reply.raw.writableEnded) controller.abort();
              request.raw.once('close', () => controller.abort());
              reply.raw.once('close', () => controller.abort());
            }
            return abort.signal;
          },
        };

        let user: UserRow | null = null;
        let rate: RateStatus;
        try {
          if (def.auth === 'none') {
            rate = rateLimiter.hit(`ip:${request.ip}`, defaultRules.unauthenticatedIp);
          } else {
            user = authenticate(ctx, request.headers.authorization);
            const key = `user:${user.id}`;
            rate = def.rateLimitExempt
              ? rateLimiter.peek(key, defaultRules.authenticatedUser)
              : rateLimiter.hit(key, defaultRules.authenticatedUser);
          }
        } catch (err) {
          return sendError(reply, toApiError(err));
        }
        reply.headers(headersFor(rate));

        const { params, ignored } = parseParams(def.params, collectRawParams(request));
        const handler = def.handler as (...args: unknown[]) => unknown;
        const result = def.groupCommit
          ? await ctx.batch(() => handler(ctx, user, params, info))
          : await handler(ctx, user, params, info);
        const body: Record<string, unknown> = { result: 'success', msg: '', ...(result as object) };
        if (ignored.length > 0) body.ignored_parameters_unsupported = ignored.sort();
        return reply.code(200).send(body);
      },
    });
  }

  return app;
}
