/**
 * The chat view's client of Hearth's Zulip REST API: same-origin calls to
 * /api/v1, parameters form-encoded the way Zulip's own clients send them
 * (arrays and objects as JSON text). In the browser the page's session
 * cookie authenticates (the browser sends it) and every call echoes the
 * session's CSRF token in X-CSRFToken (session.ts); outside a browser
 * (tests, scripts) Basic auth with `email:api_key` does, as for any Zulip
 * client.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Params = Record<string, unknown>;

/** An API key, for use outside a browser session (tests, scripts). */
export interface Credentials {
  email: string;
  apiKey: string;
}

/** The header that carries a browser session's CSRF token (Django's and Zulip's). */
export const CSRF_HEADER = 'X-CSRFToken';

/** A Zulip error answer (`result: "error"`), or a failure to reach the server. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** Zulip's `code` (`BAD_REQUEST`, `BAD_EVENT_QUEUE_ID`, …); `NETWORK_ERROR` when there was no answer. */
    readonly code: string,
    /** HTTP status; 0 when the server did not answer. */
    readonly status: number,
    /** The offending parameter, when the server names one. */
    readonly varName?: string,
    /** The whole error body, for fields particular to one error (e.g. `queue_id`). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** True when the server could not be reached (restarting, network gone). */
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

/** Zulip's wire format: strings as they are, everything else as JSON text. */
export function encodeParams(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

const basic = ({ email, apiKey }: Credentials) =>
  // btoa needs Latin-1: encode the UTF-8 bytes of the e-mail first.
  `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${email}:${apiKey}`)))}`;

/**
 * Requests sent before the app's bundle ran (boot.ts), each waiting for the
 * first call to its method and path. Kept on the global object because the
 * page's first script and the app are separate bundles.
 */
interface HeadStart {
  /** Who asked: the credential headers, as text. */
  who: string;
  body: string;
  response: Promise<Response>;
}
const HEAD_STARTS = Symbol.for('hearth.chat.headStarts');

function headStarts(): Map<string, HeadStart> {
  const holder = globalThis as { [HEAD_STARTS]?: Map<string, HeadStart> };
  holder[HEAD_STARTS] ??= new Map();
  return holder[HEAD_STARTS];
}

/**
 * The head start for this request, if one was sent: only the first call to a
 * method and path may take it (an answer kept longer would be stale), and
 * only when it asks exactly the same thing with the same credentials.
 */
function takeHeadStart(
  method: HttpMethod,
  path: string,
  who: string,
  body: BodyInit | undefined,
): Promise<Response> | null {
  const starts = headStarts();
  const key = `${method} ${path}`;
  const start = starts.get(key);
  if (!start) return null;
  starts.delete(key);
  const text = body === undefined ? '' : body instanceof URLSearchParams ? body.toString() : null;
  return start.who === who && start.body === text ? start.response : null;
}

export interface ApiOptions {
  /** The server's origin; the page's own by default. */
  baseUrl?: string;
  /** An API key sent as Basic auth; none in the browser chat, whose session cookie stands for it. */
  credentials?: Credentials | null;
  /** The browser session's CSRF token, read at each call (the page's cookie may change). */
  csrfToken?: () => string | null;
  fetch?: typeof fetch;
}

export class ZulipApi {
  readonly baseUrl: string;
  credentials: Credentials | null;
  private readonly csrfToken: () => string | null;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ApiOptions = {}) {
    this.baseUrl = options.baseUrl ?? location.origin;
    this.credentials = options.credentials ?? null;
    this.csrfToken = options.csrfToken ?? (() => null);
    this.fetchImpl = options.fetch ?? fetch.bind(globalThis);
  }

  /** An absolute URL for a server path (`/user_uploads/…`, `/api/v1/…`). */
  url(path: string): string {
    return new URL(path, this.baseUrl).toString();
  }

  /**
   * Calls `/api/v1{path}`; resolves with the success body, rejects with
   * ApiError. `signal` aborts (an event long-poll when the queue is dropped).
   */
  async call<T = Record<string, unknown>>(
    method: HttpMethod,
    path: string,
    params: Params = {},
    signal?: AbortSignal,
  ): Promise<T> {
    const { url, body } = this.request(method, path, params);
    return this.send<T>(method, url, body, signal);
  }

  /** Where an /api/v1 call goes and what it sends: parameters in the query or the form body. */
  private request(
    method: HttpMethod,
    path: string,
    params: Params,
  ): { url: string; body: URLSearchParams | undefined } {
    const form = encodeParams(params);
    const inQuery = method === 'GET' || method === 'DELETE';
    const query = inQuery && [...form].length > 0 ? `?${form}` : '';
    return { url: `/api/v1${path}${query}`, body: inQuery ? undefined : form };
  }

  /** The headers that say who calls: Basic auth with a key, else the session's CSRF token. */
  private authHeaders(): Record<string, string> {
    if (this.credentials) return { Authorization: basic(this.credentials) };
    const csrf = this.csrfToken();
    return csrf ? { [CSRF_HEADER]: csrf } : {};
  }

  /**
   * Calls a path outside /api/v1 (`/chat/session`) with the same
   * authentication and error handling as `call`; parameters go in a form body.
   */
  callAtRoot<T = Record<string, unknown>>(
    method: HttpMethod,
    path: string,
    params?: Params,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.send<T>(method, path, params ? encodeParams(params) : undefined, signal);
  }

  /**
   * Sends `/api/v1{path}` now and keeps its answer for the first `call` of
   * the same method and path, which then waits for it instead of asking
   * again (boot.ts: register while the app's bundle loads). Returns the
   * response, to chain what must follow it.
   */
  headStart(method: HttpMethod, path: string, params: Params = {}): Promise<Response> {
    const { url, body } = this.request(method, path, params);
    const headers = this.authHeaders();
    const response = this.fetchImpl(this.url(url), { method, headers, body });
    // Rejections are the taker's to handle; an answer nobody takes is no error.
    response.catch(() => {});
    headStarts().set(`${method} ${url}`, {
      who: JSON.stringify(headers),
      body: body?.toString() ?? '',
      response,
    });
    return response;
  }

  /**
   * Drops the head starts nobody took: a later call asking the same must
   * get a fresh answer (the store calls this once its start-up requests are out).
   */
  forgetHeadStarts(): void {
    headStarts().clear();
  }

  /** `POST /user_uploads` with one file; resolves with Zulip's answer (`url`, `filename`). */
  upload(
    file: File,
    signal?: AbortSignal,
  ): Promise<{ url: string; filename: string; uri: string }> {
    return this.postFile('/user_uploads', file, signal);
  }

  /** `POST /api/v1{path}` with one file as a multipart form (`/users/me/avatar`, `/user_uploads`). */
  postFile<T = Record<string, unknown>>(
    path: string,
    file: File,
    signal?: AbortSignal,
  ): Promise<T> {
    const body = new FormData();
    body.append('file', file, file.name);
    return this.send<T>('POST', `/api/v1${path}`, body, signal);
  }

  private async send<T>(
    method: HttpMethod,
    path: string,
    body: BodyInit | undefined,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const headers = this.authHeaders();
    let response: Response;
    try {
      // A DELETE (the event queue, the session) is often sent as the page
      // goes away; keepalive lets it finish after the page is gone.
      const keepalive = method === 'DELETE';
      response = await (takeHeadStart(method, path, JSON.stringify(headers), body) ??
        this.fetchImpl(this.url(path), { method, headers, body, signal, keepalive }));
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ApiError('The server could not be reached.', 'NETWORK_ERROR', 0);
    }
    let answer: Record<string, unknown>;
    try {
      answer = (await response.json()) as Record<string, unknown>;
    } catch {
      // A proxy page or a server mid-restart: no Zulip answer.
      throw new ApiError(
        `The server answered ${response.status}.`,
        'NETWORK_ERROR',
        response.status >= 500 ? 0 : response.status,
      );
    }
    if (!response.ok || answer.result === 'error') {
      throw new ApiError(
        typeof answer.msg === 'string' ? answer.msg : `The server answered ${response.status}.`,
        typeof answer.code === 'string' ? answer.code : 'BAD_REQUEST',
        response.status,
        typeof answer.var_name === 'string' ? answer.var_name : undefined,
        answer,
      );
    }
    return answer as T;
  }
}
