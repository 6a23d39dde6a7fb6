import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type AppContext, createTransactionRunner, type Logger } from './context.js';
import { openDatabase } from './db/open.js';
import { defaultTimings, EventHub, type EventHubTimings } from './events/hub.js';
import { buildHttpApp } from './http/app.js';
import { RateLimiter } from './http/rate-limit.js';
import { allRoutes } from './http/routes/index.js';

export interface ServerOptions {
  dataDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  demo?: boolean;
  rateLimit?: boolean;
  /** Milliseconds since the epoch; tests replace it. */
  now?: () => number;
  log?: Logger;
  eventTimings?: Partial<EventHubTimings>;
}

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  close(): Promise<void>;
}

export const DATABASE_FILE = 'hearth.sqlite';

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const consoleLogger: Logger = {
  info: (msg) => console.log(msg),
  warn: (msg) => console.warn(msg),
  error: (msg, err) => console.error(msg, err ?? ''),
};

/**
 * Opens the data directory and starts the HTTP API. Callers (the CLI, the
 * Electron shell, tests) decide what to do on first start (see cli.ts).
 */
export async function createServer(options: ServerOptions): Promise<RunningServer> {
  mkdirSync(options.dataDir, { recursive: true });
  const now = options.now ?? Date.now;
  const log = options.log ?? silentLogger;
  const db = openDatabase(path.join(options.dataDir, DATABASE_FILE));
  const events = new EventHub(now, { ...defaultTimings, ...options.eventTimings });
  const rateLimiter = new RateLimiter(now, options.rateLimit ?? true);
  const host = options.host ?? '127.0.0.1';
  const ctx: AppContext = {
    db,
    events,
    now,
    log,
    rateLimiter,
    config: {
      externalUrl: '',
      demo: options.demo ?? false,
      rateLimit: options.rateLimit ?? true,
      startedAtMs: now(),
    },
    transaction: createTransactionRunner(db, events, log),
  };
  const app = await buildHttpApp({ ctx, routes: allRoutes, rateLimiter });
  await app.listen({ host, port: options.port ?? 9991 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 9991);
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  ctx.config.externalUrl = `http://${urlHost}:${port}`;

  let closed = false;
  return {
    url: ctx.config.externalUrl,
    port,
    ctx,
    async close() {
      if (closed) return;
      closed = true;
      // Long-polls answer at once so the server can drain, then the DB closes last.
      events.close();
      await app.close();
      rateLimiter.close();
      db.close();
    },
  };
}
