import { createHash, timingSafeEqual } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  authenticate,
  authenticateBrowserSession,
  CSRF_HEADER,
  hasSessionCookie,
} from '../auth/index.js';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { defaultRules } from '../core/rate-limit.js';
import { MAX_EMOJI_FILE_SIZE_MIB } from '../shared/limits.js';
import { ownerContext, type TrpcContext } from '../trpc/context.js';
import { toTrpcError } from '../trpc/init.js';
import { type AppRouter, createAppRouter } from '../trpc/router.js';
import { clientAddressResolver } from './client-address.js';
import { jsonTooDeep, tooDeepMessage } from './params.js';

export const TRPC_PREFIX = '/trpc';

/**
 * emoji.add carries its image in base64 (4 characters per 3 bytes), so the
 * largest image Zulip allows must fit, with room for the rest of the call.
 */
const TRPC_BODY_LIMIT_BYTES =
  Math.ceil((MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024 * 4) / 3) + 64 * 1024;

export interface TrpcDoorOptions {
  ctx: AppContext;
  adminToken: string;
  zuliprcPath: string;
}

/** What wrong admin tokens count against besides their address: they name no user. */
const ADMIN_TOKEN_ACCOUNT = 'admin token';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Constant-time comparison (hashing first makes the lengths equal). */
function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** What of a /trpc request says who sends it. */
export interface TrpcCaller {
  authorization: string | undefined;
  /** The Cookie header and the X-CSRFToken header: a browser session. */
  cookie?: string;
  csrfToken?: string;
  clientAddress: string;
}

/**
 * Who a /trpc request acts as. `Bearer <admin token>` is the admin UI, acting
 * as the organization owner; Zulip's `Basic email:api_key` acts as that user,
 * rate-limited like the REST API, and the actions decide what it may do; so
 * does a browser session (the admin UI opened from the chat), which must
 * send its CSRF header on every call, reads too. Wrong tokens and keys count
 * against the client address (rate-limit.ts); the right token always passes.
 */
export function trpcContextFor(options: TrpcDoorOptions, caller: TrpcCaller): TrpcContext {
  const { ctx, adminToken, zuliprcPath } = options;
  const { authorization, clientAddress } = caller;
  if (authorization === undefined && hasSessionCookie(caller.cookie)) {
    try {
      const actor = authenticateBrowserSession(ctx, {
        cookie: caller.cookie,
        method: 'POST',
        csrfToken: caller.csrfToken,
        alwaysCheckCsrf: true,
      });
      ctx.rateLimiter.hit(`user:${actor.id}`, defaultRules.authenticatedUser);
      return { app: ctx, actor, zuliprcPath: null };
    } catch (err) {
      throw err instanceof ApiError ? toTrpcError(err) : err;
    }
  }
  const [scheme = '', credentials = ''] = (authorization ?? '').trim().split(/\s+/, 2);
  if (scheme.toLowerCase() === 'bearer') {
    const checkToken = () => {
      if (!tokenMatches(credentials, adminToken)) {
        throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Invalid admin token' });
      }
    };
    try {
      ctx.rateLimiter.checkCredential(
        clientAddress,
        () => ADMIN_TOKEN_ACCOUNT,
        checkToken,
        (err) => err instanceof TRPCError,
      );
    } catch (err) {
      throw err instanceof ApiError ? toTrpcError(err) : err;
    }
    return ownerContext(ctx, zuliprcPath);
  }
  if (scheme.toLowerCase() === 'basic') {
    try {
      const actor = authenticate(ctx, authorization, clientAddress);
      ctx.rateLimiter.hit(`user:${actor.id}`, defaultRules.authenticatedUser);
      return { app: ctx, actor, zuliprcPath: null };
    } catch (err) {
      throw err instanceof ApiError ? toTrpcError(err) : err;
    }
  }
  throw new TRPCError({
    code: 'UNAUTHORIZED',
    message: 'Missing credentials: send Authorization: Bearer <admin token>',
  });
}

/**
 * tRPC parses its input itself (the JSON body arrives as text, GET input in
 * the query string) and superjson copies it recursively: refuse hostile
 * nesting before that.
 */
function checkInputDepth(req: FastifyRequest): void {
  const query = (req.query as Record<string, unknown> | undefined)?.input;
  for (const text of [query, req.body].flat()) {
    if (typeof text === 'string' && jsonTooDeep(text)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: tooDeepMessage('Input') });
    }
  }
}

/** Serves the tRPC router under /trpc on the API's own Fastify server. */
export async function registerTrpc(app: FastifyInstance, options: TrpcDoorOptions): Promise<void> {
  const clientAddressOf = clientAddressResolver(options.ctx.config.trustedProxies);
  const trpcOptions: FastifyTRPCPluginOptions<AppRouter>['trpcOptions'] = {
    router: createAppRouter(),
    createContext: ({ req }) => {
      checkInputDepth(req);
      const csrf = req.headers[CSRF_HEADER];
      return trpcContextFor(options, {
        authorization: req.headers.authorization,
        cookie: req.headers.cookie,
        csrfToken: typeof csrf === 'string' ? csrf : undefined,
        clientAddress: clientAddressOf(req),
      });
    },
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        options.ctx.log.error(`tRPC ${path ?? '?'} failed`, error.cause ?? error);
      }
    },
  };
  // Fastify's path parameters are capped at 100 characters (routerOptions.maxParamLength),
  // so HTTP batches stay small: the admin UI sends at most 4 calls per request.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = TRPC_BODY_LIMIT_BYTES;
    });
    await scope.register(fastifyTRPCPlugin, { prefix: TRPC_PREFIX, trpcOptions });
  });
}
