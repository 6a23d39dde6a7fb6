import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ApiError } from '../core/errors.js';
import type { TrpcContext } from './context.js';

type TrpcCode = TRPCError['code'];

const CODE_BY_STATUS: Record<number, TrpcCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
};

/** The domain's error as tRPC's; the ApiError stays the cause so its Zulip code survives. */
export function toTrpcError(error: ApiError): TRPCError {
  return new TRPCError({
    code: CODE_BY_STATUS[error.status] ?? 'INTERNAL_SERVER_ERROR',
    message: error.message,
    cause: error,
  });
}

/** The Zulip error envelope's fields (`code`, `msg` and any extras such as `var_name`). */
export type ZulipErrorData = { code: string; msg: string } & Record<string, unknown>;

interface Issue {
  path?: readonly PropertyKey[] | readonly { key: PropertyKey }[];
  message: string;
}

const hasIssues = (cause: unknown): cause is { issues: Issue[] } =>
  typeof cause === 'object' &&
  cause !== null &&
  Array.isArray((cause as { issues?: unknown }).issues);

/** "fullName: Invalid input: expected string, received undefined" rather than a JSON dump. */
function describeIssues(issues: Issue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((part) => String(typeof part === 'object' && part !== null ? part.key : part))
        .join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  // No stack traces on the wire, whatever NODE_ENV says.
  isDev: false,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const zulip: ZulipErrorData | null =
      cause instanceof ApiError ? { ...cause.extra, code: cause.code, msg: cause.message } : null;
    let message = shape.message;
    if (error.code === 'BAD_REQUEST' && hasIssues(cause)) message = describeIssues(cause.issues);
    else if (error.code === 'INTERNAL_SERVER_ERROR' && !zulip) message = 'Internal server error';
    return { ...shape, message, data: { ...shape.data, zulip } };
  },
});

/**
 * Domain errors thrown by an action leave as the matching tRPC error, with
 * the Zulip code and message in `error.data.zulip`.
 */
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof ApiError) throw toTrpcError(result.error.cause);
  return result;
});

export const router = t.router;
export const procedure = t.procedure.use(mapDomainErrors);
