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

/**
 * Terse texts the API gives (Zulip's, kept as they are on the wire) and
 * what a person reads instead, in one place so every page says the same.
 * Rules themselves (how strong a password must be) stay the server's: its
 * words for them pass unchanged.
 */
const HUMAN: [RegExp, (...groups: string[]) => string][] = [
  [/^Invalid email ''$/, () => 'Enter an e-mail address.'],
  [/^Invalid email '(.+)'$/s, (email) => `“${email}” is not a valid e-mail address.`],
  [/^Name too short!$/, () => 'The name is too short.'],
  [/^Name too long!$/, () => 'The name is too long.'],
  [/^Internal server error$/, () => 'Something went wrong on the server. Its log says what.'],
  [
    /^(Failed to fetch|fetch failed|NetworkError.*|Load failed)$/,
    () => 'The server did not answer. Is Hearth still running?',
  ],
];

/** What a person reads for an error's message (see HUMAN); others pass unchanged. */
export function humanMessage(message: string): string {
  for (const [pattern, say] of HUMAN) {
    const match = pattern.exec(message);
    if (match) return say(...match.slice(1));
  }
  return message;
}

/** The domain's message ("Email 'x' already in use") rather than tRPC's wrapping, in human words. */
export function shownError(error: unknown): ShownError {
  const data = dataOf(error);
  if (error instanceof TRPCClientError) {
    return {
      message: humanMessage(data?.zulip?.msg ?? error.message),
      field: data?.field ?? null,
      code: data?.code ?? null,
      zulipCode: data?.zulip?.code ?? null,
    };
  }
  return {
    message: humanMessage(error instanceof Error ? error.message : String(error)),
    field: null,
    code: null,
    zulipCode: null,
  };
}
