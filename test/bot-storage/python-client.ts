/**
 * Requests exactly as the `zulip` Python bindings put them on the wire, for
 * the calls zulip_bots' StateHandler makes (python-zulip-api:
 * zulip/zulip/__init__.py `call_endpoint` / `do_api_query`, and
 * zulip_bots/zulip_bots/lib.py `StateHandler`):
 *
 * - every request value that is not a string is `json.dumps`-ed (separators
 *   ", " and ": ", non-ASCII escaped as \uXXXX);
 * - GET puts the values in the query string, every other method in an
 *   application/x-www-form-urlencoded body, both by `urllib.parse.urlencode`
 *   (quote_plus: spaces become "+", everything but letters, digits and
 *   "_.-~" is percent-encoded);
 * - `update_storage(request)` is PUT bot_storage, `get_storage(request)` GET
 *   bot_storage, `remove_storage(request)` DELETE bot_storage.
 */
import { basicAuth } from '../helpers/server.js';

/** Python's json.dumps with its default arguments. */
export function pyJsonDumps(value: unknown): string {
  if (typeof value === 'string') return pyJsonString(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    const items = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${pyJsonString(k)}: ${pyJsonDumps(v)}`,
    );
    return `{${items.join(', ')}}`;
  }
  throw new Error(`cannot dump ${typeof value}`);
}

const escapes: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

function pyJsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = text.charCodeAt(i);
    if (escapes[ch]) out += escapes[ch];
    else if (code < 0x20 || code > 0x7e) {
      // ensure_ascii: UTF-16 units, so astral characters become surrogate pairs.
      out += code === 0x7f ? ch : `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

/** urllib.parse.quote_plus: like encodeURIComponent, but "!'()*" encoded and spaces as "+". */
function quotePlus(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** urllib.parse.urlencode of the request after do_api_query's JSON step. */
export function pyUrlencode(request: Record<string, unknown>): string {
  return Object.entries(request)
    .map(([k, v]) => `${quotePlus(k)}=${quotePlus(typeof v === 'string' ? v : pyJsonDumps(v))}`)
    .join('&');
}

export interface PyResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: arbitrary JSON
  body: any;
}

/** A `zulip.Client` for one bot, with the three storage methods. */
export class PythonClient {
  constructor(
    private readonly baseUrl: string,
    private readonly email: string,
    private readonly apiKey: string,
  ) {}

  async callEndpoint(
    method: 'GET' | 'PUT' | 'DELETE',
    request: Record<string, unknown> = {},
  ): Promise<PyResponse> {
    const encoded = pyUrlencode(request);
    let url = `${this.baseUrl}/api/v1/bot_storage`;
    const headers: Record<string, string> = {
      authorization: basicAuth(this.email, this.apiKey),
      'user-agent': 'ZulipHelloworldBot/0.9.0 (Linux; Python 3.12)',
    };
    let body: string | undefined;
    if (method === 'GET') {
      if (encoded) url += `?${encoded}`;
    } else {
      body = encoded;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await fetch(url, { method, headers, body });
    return { status: response.status, body: await response.json() };
  }

  updateStorage = (request: Record<string, unknown>) => this.callEndpoint('PUT', request);
  getStorage = (request?: Record<string, unknown>) => this.callEndpoint('GET', request);
  removeStorage = (request?: Record<string, unknown>) => this.callEndpoint('DELETE', request);
}

/**
 * zulip_bots' StateHandler over the client: values are marshalled with
 * json.dumps, `get` raises (here: throws) KeyError when the server answers an
 * error, `contains` is local only.
 */
export class StateHandler {
  private readonly state = new Map<string, string>();

  constructor(private readonly client: PythonClient) {}

  async put(key: string, value: unknown): Promise<void> {
    this.state.set(key, pyJsonDumps(value));
    const response = await this.client.updateStorage({ storage: { [key]: this.state.get(key) } });
    if (response.body.result !== 'success') {
      throw new Error(`Error updating state: ${JSON.stringify(response.body)}`);
    }
  }

  async get(key: string): Promise<unknown> {
    const cached = this.state.get(key);
    if (cached !== undefined) return JSON.parse(cached);
    const response = await this.client.getStorage({ keys: [key] });
    if (response.body.result !== 'success') throw new Error(`KeyError: key not found: ${key}`);
    const marshalled: string = response.body.storage[key];
    this.state.set(key, marshalled);
    return JSON.parse(marshalled);
  }

  contains(key: string): boolean {
    return this.state.has(key);
  }
}
