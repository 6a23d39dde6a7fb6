/**
 * An HTTP(S) client for the TLS tests, on node:https so each test says
 * exactly which authorities it trusts (`ca`: only those; none given: the
 * system's). Every request opens a new connection (no agent), so each one
 * goes through a handshake and sees the certificate served at that moment.
 */
import http from 'node:http';
import https from 'node:https';
import type tls from 'node:tls';
import { basicAuth, encodeValue } from '../helpers/server.js';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: arbitrary JSON
  body: any;
  /** The certificate the server presented (TLS only). */
  peer: tls.PeerCertificate | null;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Form parameters (query string for GET). */
  params?: Record<string, unknown>;
  /** Trust only these authorities (PEM). */
  ca?: string | Buffer;
  /** false: accept any certificate (to look at it). */
  rejectUnauthorized?: boolean;
  auth?: { email: string; apiKey: string };
  /** Host name for SNI and for the certificate check, when the URL has an address. */
  servername?: string;
}

export function request(url: string, options: RequestOptions = {}): Promise<Answer> {
  const method = options.method ?? 'GET';
  const target = new URL(url);
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth) headers.authorization = basicAuth(options.auth.email, options.auth.apiKey);
  let body: string | undefined;
  const entries = Object.entries(options.params ?? {}).map(
    ([k, v]) => [k, encodeValue(v)] as [string, string],
  );
  if (method === 'GET') for (const [k, v] of entries) target.searchParams.set(k, v);
  else if (entries.length > 0) {
    body = new URLSearchParams(entries).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      target,
      {
        method,
        headers,
        agent: false,
        ...(secure
          ? {
              ...(options.ca !== undefined ? { ca: options.ca } : {}),
              ...(options.servername ? { servername: options.servername } : {}),
              rejectUnauthorized: options.rejectUnauthorized ?? true,
            }
          : {}),
      },
      (res) => {
        const peer = secure ? (res.socket as tls.TLSSocket).getPeerCertificate() : null;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            // Not JSON (a certificate, a page).
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: json, peer });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Why a request failed: its error code and message (e.g. a certificate error), or 'ok'. */
export async function failureOf(url: string, options: RequestOptions = {}): Promise<string> {
  try {
    await request(url, options);
    return 'ok';
  } catch (err) {
    return `${(err as NodeJS.ErrnoException).code}: ${(err as Error).message}`;
  }
}

/**
 * Register, send and long-poll over one base URL: a queue for message
 * events, a message from `sender`, and the event that reaches the queue of
 * `reader` (a long-poll started before the message is sent).
 */
export async function registerSendAndPoll(
  baseUrl: string,
  trust: Pick<RequestOptions, 'ca' | 'servername'>,
  sender: { email: string; apiKey: string },
  reader: { email: string; apiKey: string },
): Promise<{
  messageId: number;
  event: { type: string; message: { id: number; content: string } };
}> {
  const api = `${baseUrl}/api/v1`;
  const register = await request(`${api}/register`, {
    ...trust,
    method: 'POST',
    auth: reader,
    params: { event_types: ['message'] },
  });
  if (register.status !== 200) throw new Error(`register: ${register.status} ${register.text}`);
  const { queue_id, last_event_id } = register.body;
  const poll = request(`${api}/events`, {
    ...trust,
    auth: reader,
    params: { queue_id, last_event_id },
  });
  const sent = await request(`${api}/messages`, {
    ...trust,
    method: 'POST',
    auth: sender,
    params: { type: 'direct', to: [reader.email], content: 'over TLS' },
  });
  if (sent.status !== 200) throw new Error(`send: ${sent.status} ${sent.text}`);
  const events = await poll;
  if (events.status !== 200) throw new Error(`events: ${events.status} ${events.text}`);
  return { messageId: sent.body.id, event: events.body.events[0] };
}
