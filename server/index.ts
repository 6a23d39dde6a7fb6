import { chmodSync, mkdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import {
  applyStagedRestore,
  attachBackups,
  BackupService,
  type SpaceThresholds,
} from './backup/index.js';
import { type AppContext, createTransactionRunner, type Logger } from './core/context.js';
import { DataDirLock } from './core/data-dir-lock.js';
import { DurableCommits } from './core/durable-commits.js';
import { openFileLog, teeLogger } from './core/log.js';
import { RateLimiter } from './core/rate-limit.js';
import { WriteBatcher } from './core/write-batcher.js';
import { openDatabase } from './db/open.js';
import { defaultTimings, EventHub, type EventHubTimings } from './events/hub.js';
import { lanInterfaces } from './hosting/index.js';
import { registerAdminUi } from './http/admin-ui.js';
import { buildHttpApp } from './http/app.js';
import { registerChatUi } from './http/chat-ui.js';
import {
  type ConnectionLimits,
  connectionLimitsFor,
  openFileLimit,
} from './http/connection-cap.js';
import { logRequests } from './http/request-log.js';
import { allRoutes } from './http/routes/index.js';
import { registerSignupPage } from './http/signup-page.js';
import { registerTlsFiles } from './http/tls-files.js';
import { registerTrpc } from './http/trpc-plugin.js';
import { DEFAULT_BACKUP_CHECK_SCHEDULE, startAutomaticBackups } from './jobs/automatic-backup.js';
import { DEFAULT_DELIVERY_SCHEDULE, startScheduledDelivery } from './jobs/scheduled-delivery.js';
import { DEFAULT_SEARCH_INDEXING_SCHEDULE, startSearchIndexing } from './jobs/search-indexing.js';
import {
  DEFAULT_UNCLAIMED_UPLOADS_SCHEDULE,
  startUnclaimedUploadCleanup,
} from './jobs/unclaimed-uploads.js';
import { narrowQueueFilter } from './narrow/index.js';
import { startOutgoingWebhooks } from './outgoing-webhooks/index.js';
import { failUnfinishedRealmExports } from './portability/index.js';
import { TOPIC_DELETION_BATCH_SIZE, TOPIC_DELETION_TIME_BUDGET_MS } from './shared/limits.js';
import { externalUrlFor, httpsScopeFor, localUrlFor } from './shared/network.js';
import { attachTls, type OwnCertificateFiles, ServerTls, TlsSetupError } from './tls/index.js';

export interface ServerOptions {
  dataDir: string;
  host?: string;
  /**
   * The base URL clients use (realm_url, the zuliprc's `site`), when it is
   * not the address listened on (a reverse proxy, a name); checked by the
   * caller (normalizeExternalUrl). Default: the LAN address when listening
   * on every interface, else http://HOST:PORT.
   */
  externalUrl?: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * Serve HTTPS on every address listened on, loopback included (`--https`).
   * Listening on anything but loopback (LAN mode) serves HTTPS there anyway;
   * loopback then keeps plain HTTP for this machine's clients.
   */
  https?: boolean;
  /**
   * The team's own certificate instead of one from the installation's
   * certificate authority (`<data dir>/tls/`); used where HTTPS is on.
   */
  tlsCertificate?: OwnCertificateFiles;
  demo?: boolean;
  rateLimit?: boolean;
  /**
   * Reverse proxies trusted to name the client in `X-Forwarded-For`
   * (addresses, CIDR ranges; checked by the caller, see http/client-address.ts).
   */
  trustedProxies?: readonly string[];
  /** Milliseconds since the epoch; tests replace it. */
  now?: () => number;
  log?: Logger;
  eventTimings?: Partial<EventHubTimings>;
  /**
   * Opens the admin door: tRPC under /trpc (`Authorization: Bearer <token>`)
   * and the admin UI under /admin/. Without it both answer 404.
   */
  adminToken?: string;
  /**
   * node-cron expression (seconds field first) for sending due scheduled
   * messages; false turns the job off (tests that drive delivery themselves).
   */
  scheduledDelivery?: string | false;
  /**
   * node-cron expression (seconds field first) for checking whether the
   * daily automatic backup is due (default every minute); false turns the
   * check off.
   */
  automaticBackups?: string | false;
  /**
   * node-cron expression (seconds field first) for deleting uploads no
   * message claimed within 5 weeks (default hourly); false turns it off.
   */
  unclaimedUploadCleanup?: string | false;
  /**
   * node-cron expression for adding sent messages to the search index
   * (default every second; a search catches up first regardless); false
   * turns it off.
   */
  searchIndexing?: string | false;
  /**
   * How long a request's headers and body may take to arrive before it is
   * answered 408 and its connection closed (default 60 s; long-polls are
   * not affected once their request has arrived).
   */
  requestTimeoutMs?: number;
  /**
   * POST /streams/{id}/delete_topic: messages deleted per transaction and
   * how long one request may work before answering `complete: false`
   * (Zulip's 100 and 50 s by default).
   */
  topicDeletion?: { batchSize?: number; timeBudgetMs?: number };
  /** How long an outgoing-webhook bot's server may take to answer (default 10 s). */
  outgoingWebhookTimeoutMs?: number;
  /**
   * Connections open at once: per address other than this machine's, in
   * all, and kept for this machine (default: from the open-file limit, see
   * http/connection-cap.ts).
   */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Log to `<data dir>/logs/hearth.log` (rotated; with a request log) besides
   * `log`; default true.
   */
  logFile?: boolean;
  /**
   * Free space below which the log and the Backups page warn and backups
   * are refused (backup/disk-space.ts); tests move them.
   */
  diskSpace?: SpaceThresholds;
}

export interface RunningServer {
  /** The URL clients use (realm_url, the zuliprc's `site`). */
  url: string;
  /** How this machine reaches the server (loopback unless bound to one address). */
  localUrl: string;
  port: number;
  ctx: AppContext;
  dataDir: string;
  /** Where first start writes the owner's zuliprc (see bootstrap.ts). */
  zuliprcPath: string;
  close(): Promise<void>;
  /**
   * Closes everything (the database last), applies a staged restore, and
   * serves again on the same port with a fresh context: the fields above
   * then describe the new run. A restore (backup.restore) asks for this
   * itself; hosts that keep a RunningServer keep the same object.
   */
  restart(): Promise<void>;
}

/** One run of the server between starts and restarts. */
interface ServerRun {
  url: string;
  localUrl: string;
  port: number;
  ctx: AppContext;
  backups: BackupService;
  close(): Promise<void>;
}

export const DATABASE_FILE = 'hearth.sqlite';
export const ZULIPRC_FILE = 'zuliprc';
/** Uploaded files, emoji and avatars, under the data directory (see core/file-store.ts). */
export const FILES_DIR = 'files';
/** An open-file limit below this is worth a warning at start (it bounds the connections). */
const LOW_OPEN_FILE_LIMIT = 2048;
/** How long close() lets requests still in flight finish before cutting their connections. */
export const CLOSE_GRACE_MS = 2_000;

export { DataDirInUseError, type LockHolder, readLockHolder } from './core/data-dir-lock.js';
export { DamagedAuthorityError, TlsSetupError } from './tls/index.js';

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

/** Responses remembered for close() before the finished ones are dropped (at twice the live ones). */
const IN_FLIGHT_PRUNE_SIZE = 1024;
export async function createServer(options: ServerOptions): Promise<RunningServer> {
  prepareDataDir(options.dataDir);
  // Held until close(), across restarts: a restore's restart reopens the same directory.
  const lock = DataDirLock.acquire(options.dataDir);
  let run: ServerRun;
  try {
    run = await startRun(options);
  } catch (err) {
    lock.release();
    throw err;
  }
  lock.announce(run);
  const log = options.log ?? silentLogger;
  // Restarts and the final close happen one after another, never interleaved.
  let lifecycle: Promise<void> = Promise.resolve();
  let closed = false;
  const server: RunningServer = {
    get url() {
      return run.url;
    },
    get localUrl() {
      return run.localUrl;
    },
    get port() {
      return run.port;
    },
    get ctx() {
      return run.ctx;
    },
    dataDir: options.dataDir,
    zuliprcPath: path.join(options.dataDir, ZULIPRC_FILE),
    close() {
      lifecycle = lifecycle.then(async () => {
        if (closed) return;
        closed = true;
        try {
          await run.close();
        } finally {
          lock.release();
        }
      });
      return lifecycle;
    },
    restart() {
      lifecycle = lifecycle.then(async () => {
        if (closed) return;
        await run.close();
        // The same port keeps clients' URL (and the desktop's) valid.
        try {
          run = await startRun({ ...options, port: run.port });
        } catch (err) {
          // Nothing serves any more: let another server have the directory.
          closed = true;
          lock.release();
          throw err;
        }
        lock.announce(run);
        watchRestarts();
        log.info(`Hearth restarted on ${run.url}`);
      });
      return lifecycle;
    },
  };
  const watchRestarts = () =>
    run.backups.onRestartRequested(() => {
      server.restart().catch((err: unknown) => log.error('restarting the server failed', err));
    });
  watchRestarts();
  return server;
}

/**
 * Owner-only when Hearth creates it (mkdir's mode passes through the umask);
 * a directory the user made keeps the mode they gave it.
 */
function prepareDataDir(dataDir: string): void {
  if (mkdirSync(dataDir, { recursive: true, mode: 0o700 }) !== undefined) {
    chmodSync(dataDir, 0o700);
  }
}

/** What the server presents over TLS, when it speaks TLS anywhere. */
async function openTls(
  options: ServerOptions,
  host: string,
  https: ReturnType<typeof httpsScopeFor>,
  now: () => number,
  log: Logger,
): Promise<ServerTls | null> {
  if (https === 'off') {
    if (options.tlsCertificate) {
      throw new TlsSetupError(
        'A TLS certificate was given but the server serves only this machine over plain HTTP: add --https, or listen on the LAN (--host)',
      );
    }
    return null;
  }
  return ServerTls.open({
    dataDir: options.dataDir,
    host,
    httpsOnLoopback: https === 'all',
    ...(options.tlsCertificate ? { own: options.tlsCertificate } : {}),
    now,
    log,
    lanAddresses: () => lanInterfaces().map((i) => i.address),
  });
}

async function startRun(options: ServerOptions): Promise<ServerRun> {
  const now = options.now ?? Date.now;
  const fileLog = options.logFile === false ? null : openFileLog(options.dataDir);
  const log = fileLog
    ? { ...teeLogger(options.log ?? silentLogger, fileLog.logger), flush: fileLog.flush }
    : (options.log ?? silentLogger);
  const host = options.host ?? '127.0.0.1';
  const https = httpsScopeFor(host, options.https ?? false);
  let serverTls: ServerTls | null = null;
  try {
    // Before anything else opens: a bad certificate stops the start with its reason.
    serverTls = await openTls(options, host, https, now, log);
  } catch (err) {
    await fileLog?.close();
    throw err;
  }
  // Before the database opens: a restore staged by the previous run is swapped in now.
  applyStagedRestore(options.dataDir, DATABASE_FILE, FILES_DIR, log);
  const db = openDatabase(path.join(options.dataDir, DATABASE_FILE));
  const events = new EventHub(now, { ...defaultTimings, ...options.eventTimings });
  events.queueFilter = narrowQueueFilter;
  const rateLimiter = new RateLimiter(now, options.rateLimit ?? true);
  const durable = DurableCommits.open(db, log);
  const runner = createTransactionRunner(db, events, log, durable);
  const { transaction } = runner;
  const batcher = new WriteBatcher(runner, durable);
  const ctx: AppContext = {
    db,
    events,
    now,
    log,
    rateLimiter,
    config: {
      externalUrl: '',
      filesDir: path.join(options.dataDir, FILES_DIR),
      dataDir: options.dataDir,
      host,
      port: options.port ?? 9991,
      givenExternalUrl: options.externalUrl,
      https,
      logFile: fileLog?.file ?? null,
      demo: options.demo ?? false,
      rateLimit: options.rateLimit ?? true,
      trustedProxies: options.trustedProxies ?? [],
      startedAtMs: now(),
      topicDeletion: {
        batchSize: options.topicDeletion?.batchSize ?? TOPIC_DELETION_BATCH_SIZE,
        timeBudgetMs: options.topicDeletion?.timeBudgetMs ?? TOPIC_DELETION_TIME_BUDGET_MS,
      },
    },
    transaction,
    batch: (fn) => batcher.run(fn),
    groupCommitStats: () => ({ ...batcher.stats, ...durable.stats }),
    setSynchronous: (level) => durable.setSynchronous(level),
  };
  const zuliprcPath = path.join(options.dataDir, ZULIPRC_FILE);
  const backups = await BackupService.open(ctx, options.dataDir, options.diskSpace);
  attachBackups(ctx, backups);
  if (serverTls) attachTls(ctx, serverTls);
  const fileLimit = openFileLimit();
  const connectionLimits = { ...connectionLimitsFor(fileLimit), ...options.connectionLimits };
  if (fileLimit !== null && fileLimit < LOW_OPEN_FILE_LIMIT) {
    log.warn(
      `The open-file limit is ${fileLimit}: Hearth keeps at most ${connectionLimits.total} connections open. Raise it with \`ulimit -n\` before starting Hearth (see README).`,
    );
  }
  failUnfinishedRealmExports(ctx);
  const app = await buildHttpApp({
    ctx,
    routes: allRoutes,
    rateLimiter,
    requestTimeoutMs: options.requestTimeoutMs,
    connectionLimits,
    ...(serverTls ? { tls: { server: serverTls, plainOnLoopback: https === 'lan' } } : {}),
  });
  if (fileLog) logRequests(app, fileLog.request);
  registerChatUi(app);
  registerTlsFiles(app, ctx);
  registerSignupPage(app, ctx);
  if (options.adminToken) {
    await registerTrpc(app, { ctx, adminToken: options.adminToken, zuliprcPath });
    registerAdminUi(app);
  }
  // Node counts a connection that has not sent a byte yet (a client's spare
  // keep-alive socket, a browser's preconnect) as busy, so it would hold close()
  // until headersTimeout. Such sockets have no request to lose.
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  try {
    await app.listen({ host, port: options.port ?? 9991 });
  } catch (err) {
    // E.g. EADDRINUSE: release everything so the caller may retry on another port.
    events.close();
    await app.close();
    rateLimiter.close();
    durable.close();
    db.close();
    await fileLog?.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 9991);
  ctx.config.externalUrl = externalUrlFor(host, port, options.externalUrl, https);
  ctx.config.port = port;
  // The console has its own banner (cli.ts); the file records each run's start.
  fileLog?.logger.info(
    `Hearth listening on ${host} port ${port}; clients use ${ctx.config.externalUrl}`,
  );
  const localUrl = localUrlFor(host, port, https);

  // Responses not yet sent when close() starts (long-polls, mostly) end their
  // keep-alive connection; otherwise an idle client socket would hold the
  // server open until its keep-alive timeout.
  // Pruned of finished responses as it grows rather than by a 'close'
  // listener on each: every long-poll passes here (server/events/POLL-BUDGET.md).
  const inFlight = new Set<ServerResponse>();
  let pruneAt = IN_FLIGHT_PRUNE_SIZE;
  app.server.on('request', (_request, response: ServerResponse) => {
    inFlight.add(response);
    if (inFlight.size < pruneAt) return;
    for (const sent of inFlight) if (sent.writableFinished || sent.destroyed) inFlight.delete(sent);
    pruneAt = Math.max(IN_FLIGHT_PRUNE_SIZE, inFlight.size * 2);
  });

  const deliveryTask =
    options.scheduledDelivery === false
      ? null
      : startScheduledDelivery(ctx, options.scheduledDelivery ?? DEFAULT_DELIVERY_SCHEDULE);

  const outgoingWebhooks = startOutgoingWebhooks(ctx, {
    timeoutMs: options.outgoingWebhookTimeoutMs,
  });

  const backupTask =
    options.automaticBackups === false
      ? null
      : startAutomaticBackups(
          backups,
          options.automaticBackups ?? DEFAULT_BACKUP_CHECK_SCHEDULE,
          log,
        );

  const uploadCleanupTask =
    options.unclaimedUploadCleanup === false
      ? null
      : startUnclaimedUploadCleanup(
          ctx,
          options.unclaimedUploadCleanup ?? DEFAULT_UNCLAIMED_UPLOADS_SCHEDULE,
        );

  const searchIndexingTask =
    options.searchIndexing === false
      ? null
      : startSearchIndexing(ctx, options.searchIndexing ?? DEFAULT_SEARCH_INDEXING_SCHEDULE);

  let closed = false;
  return {
    url: ctx.config.externalUrl,
    localUrl,
    port,
    ctx,
    backups,
    async close() {
      if (closed) return;
      closed = true;
      await deliveryTask?.destroy();
      await backupTask?.destroy();
      await uploadCleanupTask?.destroy();
      await searchIndexingTask?.destroy();
      // A backup in progress stops (its partial file removed) before the database closes.
      await backups.close();
      await outgoingWebhooks.stop();
      // Long-polls answer at once so the server can drain, then the DB closes last.
      for (const response of inFlight) {
        if (!response.headersSent && !response.destroyed) response.setHeader('Connection', 'close');
      }
      events.close();
      const closing = app.close();
      for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
      // A request still arriving (a stalled upload, a client that sent half its
      // headers) would otherwise hold a quit or a restore's restart until
      // requestTimeout; what it would have sent is lost either way.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      await closing;
      clearTimeout(cutOff);
      rateLimiter.close();
      // Answers still waiting for their fsync go out before the database closes.
      await durable.drain();
      durable.close();
      db.close();
      await fileLog?.close();
    },
  };
}
