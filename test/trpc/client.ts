import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import { expect } from 'vitest';
import type { AppRouter } from '../../server/trpc/router.js';

export type AdminClient = ReturnType<typeof createTRPCClient<AppRouter>>;

/**
 * A tRPC client for a test server's /trpc, sending `authorization` as given
 * (or, given headers, those: a browser session's cookie and CSRF header).
 */
export function trpcClient(
  baseUrl: string,
  authorization?: string | Record<string, string>,
): AdminClient {
  const headers =
    typeof authorization === 'string' ? { authorization } : { ...(authorization ?? {}) };
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        maxItems: 4,
        headers: () => headers,
      }),
    ],
  });
}

export const bearer = (token: string) => `Bearer ${token}`;

export interface TrpcFailure {
  message: string;
  code: string;
  httpStatus: number;
  zulip: { code: string; msg: string; [key: string]: unknown } | null;
  /** The input field the error concerns, for forms to show it beside. */
  field: string | null;
}

/** The tRPC error a call fails with, as the client sees it. */
export async function failure(call: Promise<unknown>): Promise<TrpcFailure> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as TRPCClientError<AppRouter>;
  const data = e.data as unknown as Omit<TrpcFailure, 'message'> | undefined;
  return {
    message: e.message,
    code: data?.code ?? '',
    httpStatus: data?.httpStatus ?? 0,
    zulip: data?.zulip ?? null,
    field: data?.field ?? null,
  };
}
