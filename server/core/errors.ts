/**
 * The one error type that crosses from the domain to the wire. Zulip clients
 * branch on `code` (and a few on `msg` prefixes), so both are part of the
 * contract; HTTP statuses follow ../shared/reference/protocol-defaults.md.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    msg: string,
    opts: {
      code?: string;
      status?: number;
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(msg);
    this.code = opts.code ?? 'BAD_REQUEST';
    this.status = opts.status ?? 400;
    this.extra = opts.extra ?? {};
    this.headers = opts.headers ?? {};
  }

  toJSON(): Record<string, unknown> {
    return { result: 'error', msg: this.message, code: this.code, ...this.extra };
  }
}

export const badRequest = (msg: string, extra?: Record<string, unknown>) =>
  new ApiError(msg, { extra });

export const missingArgument = (varName: string) =>
  new ApiError(`Missing '${varName}' argument`, {
    code: 'REQUEST_VARIABLE_MISSING',
    extra: { var_name: varName },
  });

export const notLoggedIn = () =>
  new ApiError('Not logged in: API authentication or user session required', {
    code: 'UNAUTHORIZED',
    status: 401,
    headers: { 'WWW-Authenticate': 'Basic realm="zulip"' },
  });

export const invalidApiKey = () =>
  new ApiError('Invalid API key', { code: 'INVALID_API_KEY', status: 401 });

/** Zulip's InvalidAPIKeyFormatError: a key that is not 32 letters and digits. */
export const malformedApiKey = () =>
  new ApiError('Malformed API key', { code: 'INVALID_API_KEY', status: 401 });

export const userDeactivated = () =>
  new ApiError('Account is deactivated', { code: 'USER_DEACTIVATED', status: 401 });

export const realmDeactivated = () =>
  new ApiError('This organization is deactivated', { code: 'REALM_DEACTIVATED', status: 401 });

export const authenticationFailed = (msg = 'Your username or password is incorrect') =>
  new ApiError(msg, { code: 'AUTHENTICATION_FAILED', status: 401 });

export const accessDenied = () =>
  new ApiError('Access denied', { code: 'ACCESS_DENIED', status: 403 });

export const adminRequired = () =>
  new ApiError('Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });

export const ownerRequired = () =>
  new ApiError('Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });

export const botRequired = () => new ApiError('Must be a bot user', { code: 'PERMISSION_DENIED' });

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError('API usage exceeded rate limit', {
    code: 'RATE_LIMIT_HIT',
    status: 429,
    extra: { 'retry-after': retryAfterSeconds },
    headers: { 'Retry-After': String(Math.ceil(retryAfterSeconds)) },
  });

export const badEventQueue = (queueId: string) =>
  new ApiError(`Bad event queue ID: ${queueId}`, {
    code: 'BAD_EVENT_QUEUE_ID',
    extra: { queue_id: queueId },
  });

export const noSuchUser = () => new ApiError('No such user');

export const requestTooLarge = () =>
  new ApiError('Request body too large', { code: 'REQUEST_TOO_LARGE', status: 413 });

export const notFound = () =>
  new ApiError('Endpoint not found', { code: 'NOT_FOUND', status: 404 });

/** The generic refusal Zulip gives when a permission setting excludes the caller. */
export const insufficientPermission = () => new ApiError('Insufficient permission');

/** A user given as a target (principal, subscriber, recipient) who is deactivated. */
export const targetUserDeactivated = () => new ApiError('User is deactivated');

/**
 * Zulip's ValidationFailureError: a Django model's validation, reported with
 * `msg` the first message and `errors` mapping each field (or `__all__`) to
 * its messages, in the order the checks ran.
 */
export class FieldErrors {
  private readonly errors: Record<string, string[]> = {};

  add(field: string, msg: string): void {
    this.errors[field] ??= [];
    this.errors[field].push(msg);
  }

  has(field: string): boolean {
    return this.errors[field] !== undefined;
  }

  /** Throws the collected failure, if any check failed. */
  throwIfAny(): void {
    const first = Object.values(this.errors)[0]?.[0];
    if (first !== undefined) throw badRequest(first, { errors: this.errors });
  }
}

/** Django's message for a required text field left empty. */
export const BLANK_FIELD = 'This field cannot be blank.';
