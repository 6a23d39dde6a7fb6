import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { knownCaller } from '../auth/index.js';
import type { AppContext, ServerConfig } from '../core/context.js';
import { loggablePath, type RequestLogEntry } from '../core/log.js';
import type { ClientHangup, HangupListener, PollAnswer } from '../events/hub.js';
import { type AllowedHosts, hostRefusal } from './allowed-hosts.js';
import { ConnectionHangup } from './hangup.js';
import { strictTransportFor, type TlsListener } from './tls-listener.js';

/**
 * The lean path of `GET /api/v1/events`, the hottest request the server
 * answers: every live client holds one, and each message answers and
 * re-parks one per queue. Zulip keeps its event server (Tornado) apart from
 * its request stack for this reason.
 *
 * It serves the long-poll as clients send it (an API key already seen since
 * the users and realm last changed, the three parameters in their plain
 * spelling, the caller's own queue, a valid acknowledgement) under the same
 * rules as the route in routes/events.ts, without Fastify's request cycle:
 * no routing, hooks, reply object, promise chain or parameter parser, and the
 * answer written in one piece. Anything else (another spelling, an unknown
 * key, a cookie session, a body, any refusal) it hands to Fastify untouched,
 * so errors, their order and their texts come from one place: the route and
 * its parameter spec stay the definition, this only recognises their most
 * common case. The budget per poll is in server/events/POLL-BUDGET.md.
 *
 * What it keeps from the full cycle: the Host allowlist (allowed-hosts.ts),
 * HTTPS's HSTS header and redirect (tls-listener.ts: a redirect goes to the
 * hooks), the request log, the deactivation checks (auth's cache is emptied
 * by any write to the users or realm tables), the address noted for its
 * account (rate-limit.ts, for password lock-outs), the heartbeat and the
 * hang-up. Connection caps and request timeouts act on sockets, below both
 * paths. Like Zulip's, GET /events is not rate-limited on either path.
 */
export interface LeanEventsOptions {
  ctx: AppContext;
  allowedHosts: AllowedHosts;
  /** Where HTTPS is served: its listener and the server's config. */
  tls: { listener: TlsListener; config: ServerConfig } | null;
  clientAddressOf(request: IncomingMessage): string;
}

const PREFIX = '/api/v1/events?';
/** Queue ids are UUIDs: nothing to decode. */
const PLAIN_ID = /^[A-Za-z0-9-]{1,64}$/;
/** An integer as params.ts reads one, in its one canonical spelling. */
const PLAIN_INTEGER = /^(?:0|-?[1-9][0-9]{0,14})$/;

interface PlainPoll {
  queueId: string;
  lastEventId: number;
  dontBlock: boolean;
}

/**
 * The poll's parameters when the query string spells exactly `queue_id`,
 * `last_event_id` and optionally `dont_block` plainly (no escapes, no
 * repeats, nothing else: `client` names the client, other names are
 * reported as ignored); otherwise null, and the route's spec reads it.
 */
function plainPoll(query: string): PlainPoll | null {
  let queueId: string | undefined;
  let lastEventId: number | undefined;
  let dontBlock: boolean | undefined;
  let start = 0;
  while (start <= query.length) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    const eq = query.indexOf('=', start);
    if (eq < 0 || eq > end) return null;
    const name = query.slice(start, eq);
    const value = query.slice(eq + 1, end);
    if (name === 'queue_id' && queueId === undefined && PLAIN_ID.test(value)) {
      queueId = value;
    } else if (name === 'last_event_id' && lastEventId === undefined && PLAIN_INTEGER.test(value)) {
      lastEventId = Number(value);
    } else if (name === 'dont_block' && dontBlock === undefined && /^(?:true|false)$/.test(value)) {
      dontBlock = value === 'true';
    } else {
      return null;
    }
    start = end + 1;
  }
  if (queueId === undefined || lastEventId === undefined) return null;
  return { queueId, lastEventId, dontBlock: dontBlock ?? false };
}

export class LeanEvents {
  private closing = false;
  private readonly logs: Array<(entry: RequestLogEntry) => void> = [];

  constructor(private readonly options: LeanEventsOptions) {}

  /** Logs each answered poll as the request log's Fastify hook logs the rest. */
  logTo(write: (entry: RequestLogEntry) => void): void {
    this.logs.push(write);
  }

  /** The server is closing: Fastify answers new requests (503) from now on. */
  close(): void {
    this.closing = true;
  }

  /** Serves a plain long-poll and says true; false leaves the request to Fastify, untouched. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    const url = request.url;
    if (this.closing || request.method !== 'GET' || url === undefined || !url.startsWith(PREFIX)) {
      return false;
    }
    const started = performance.now();
    const { headers } = request;
    const authorization = headers.authorization;
    if (
      authorization === undefined ||
      headers['transfer-encoding'] !== undefined ||
      (headers['content-length'] !== undefined && headers['content-length'] !== '0')
    ) {
      return false;
    }
    const poll = plainPoll(url.slice(PREFIX.length));
    if (poll === null) return false;
    const { ctx, allowedHosts, tls } = this.options;
    if (hostRefusal(request, allowedHosts) !== null) return false;
    const strictTransport = tls ? strictTransportFor(request, tls.listener, tls.config) : null;
    if (strictTransport === 'hooks') return false;
    const user = knownCaller(ctx, authorization);
    if (!user) return false;
    const queue = ctx.events.find(poll.queueId, user.id);
    if (!queue) return false;
    ctx.rateLimiter.noteAuthenticated(this.options.clientAddressOf(request), user.email_key);
    const answering = new LeanPoll(this, request, response, queue.id, strictTransport, started);
    // A poll queued behind another answer on its connection (pipelined) has
    // no socket yet: only its request hears of a hang-up then.
    const hangup = response.socket ? answering : new ConnectionHangup(request, response);
    try {
      ctx.events.pollThen(queue, poll.lastEventId, poll.dontBlock, hangup, answering);
    } catch {
      // A refused acknowledgement: refused again, identically, by the route
      // (acknowledging drops nothing a second time).
      return false;
    }
    return true;
  }

  /** Writes the log line of an answered poll. */
  logged(request: IncomingMessage, started: number): void {
    if (this.logs.length === 0) return;
    const entry: RequestLogEntry = {
      method: 'GET',
      path: loggablePath(request.url!),
      status: 200,
      durationMs: performance.now() - started,
    };
    for (const write of this.logs) write(entry);
  }
}

const waitingPoll = Symbol('waiting long-poll');
const watchedForHangup = Symbol('watched for a hang-up');

type WatchedSocket = Socket & { [waitingPoll]?: LeanPoll; [watchedForHangup]?: true };

/**
 * One 'close' listener per keep-alive connection, shared by every lean poll
 * that waits on it (a connection carries one poll at a time): a waiting
 * poll is noted on its socket rather than adding and removing a listener of
 * its own each time it parks.
 */
function onSocketClose(this: WatchedSocket): void {
  this[waitingPoll]?.hungUp();
}

/**
 * One plain long-poll being answered: the answer's recipient and, while it
 * waits, its hang-up (ConnectionHangup's rule: the connection closing
 * before the answer was written).
 */
class LeanPoll implements ClientHangup, PollAnswer {
  private listener: HangupListener | null = null;
  private socket: WatchedSocket | null = null;

  constructor(
    private readonly lean: LeanEvents,
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
    private readonly queueId: string,
    private readonly strictTransport: string | null,
    private readonly started: number,
  ) {}

  listen(listener: HangupListener): void {
    const { response } = this;
    const socket = response.socket as WatchedSocket | null;
    if (this.request.destroyed || response.writableEnded || !socket || socket.destroyed) {
      if (!response.writableFinished) listener.hungUp();
      return;
    }
    this.listener = listener;
    this.socket = socket;
    socket[waitingPoll] = this;
    if (!socket[watchedForHangup]) {
      socket[watchedForHangup] = true;
      socket.on('close', onSocketClose);
    }
  }

  stopListening(): void {
    this.listener = null;
    if (this.socket?.[waitingPoll] === this) this.socket[waitingPoll] = undefined;
    this.socket = null;
  }

  hungUp(): void {
    if (!this.response.writableFinished) this.listener?.hungUp();
  }

  answer(events: string): void {
    const { response } = this;
    if (response.destroyed) return;
    // As the route's SerialisedFields answer, byte for byte (the id is a
    // UUID: nothing to escape); a string, so that Node writes the head and
    // the body in one write.
    const body = `{"result":"success","msg":"","events":[${events}],"queue_id":"${this.queueId}"}`;
    const head = ['Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(body))];
    if (this.strictTransport !== null) head.push('Strict-Transport-Security', this.strictTransport);
    response.writeHead(200, head);
    response.end(body);
    this.lean.logged(this.request, this.started);
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';
