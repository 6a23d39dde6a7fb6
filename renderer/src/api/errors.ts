import { TRPCClientError } from '@trpc/client';

/** A failed call as a form shows it: the message, and the input field it is about. */
export interface ShownError {
  message: string;
  /** The procedure's input field (e.g. `email`), or null for the form as a whole. */
  field: string | null;
  /** tRPC's code (UNAUTHORIZED, BAD_REQUEST, …), or null when the call never got an answer. */
  code: string | null;
  /** Zulip's error code when the domain refused (UNAUTHORIZED_PRINCIPAL: the role is too low). */
  zulipCode: string | null;
}

interface ErrorData {
  code?: string;
  field?: string | null;
  zulip?: { msg?: string; code?: string } | null;
}

const dataOf = (error: unknown): ErrorData | undefined =>
  error instanceof TRPCClientError ? (error.data as ErrorData | undefined) : undefined;

/** The domain's message ("Email 'x' already in use") rather than tRPC's wrapping. */
export function shownError(error: unknown): ShownError {
  const data = dataOf(error);
  if (error instanceof TRPCClientError) {
    return {
      message: data?.zulip?.msg ?? error.message,
      field: data?.field ?? null,
      code: data?.code ?? null,
      zulipCode: data?.zulip?.code ?? null,
    };
  }
  return {
    message: error instanceof Error ? error.message : String(error),
    field: null,
    code: null,
    zulipCode: null,
  };
}
