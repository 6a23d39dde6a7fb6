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
  503: 'SERVICE_UNAVAILABLE',
};

/** The domain's error as tRPC's; the ApiError stays the cause so its Zulip code survives. */
export function toTrpcError(error: ApiError): TRPCError {
  return new TRPCError({
    code: CODE_BY_STATUS[error.status] ?? 'INTERNAL_SERVER_ERROR',
    message: error.message,
    cause: error,
  });
}

/**
 * Which input field an error is about, for errors whose Zulip form names no
 * `var_name` ("Email 'x' already in use"): set by `blame`, read by the formatter.
 */
const blamedField = new WeakMap<object, string>();

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The input field an error concerns, so a form can show it next to that field. */
function fieldOf(error: TRPCError): string | null {
  const cause = error.cause;
  const blamed = blamedField.get(error) ?? (cause ? blamedField.get(cause) : undefined);
  if (blamed) return blamed;
  if (cause instanceof ApiError && typeof cause.extra.var_name === 'string') {
    return camelCase(cause.extra.var_name);
  }
  if (hasIssues(cause)) {
    const first = cause.issues[0]?.path?.[0];
    if (first !== undefined) {
      return String(typeof first === 'object' && first !== null ? first.key : first);
    }
  }
  return null;
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
    return { ...shape, message, data: { ...shape.data, zulip, field: fieldOf(error) } };
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

/**
 * A procedure whose domain errors are attributed to input fields by their
 * message: `blame({ email: /email/i })`. The first matching rule wins.
 */
export function blame(rules: Record<string, RegExp>) {
  return procedure.use(async ({ next }) => {
    const result = await next();
    if (!result.ok) {
      const cause = result.error.cause;
      if (cause instanceof ApiError && typeof cause.extra.var_name !== 'string') {
        const field = Object.entries(rules).find(([, pattern]) => pattern.test(cause.message));
        if (field) blamedField.set(cause, field[0]);
      }
    }
    return result;
  });
}
