/**
 * The server process: Electron runs this file with utilityProcess.fork, so
 * SQLite and every request live outside the main process and the window
 * never waits on them. It starts the server on the desktop's network
 * settings, reports where it listens, answers the window's tRPC calls the
 * main process relays, and closes the server and the database when told to.
 * No Electron import: under Node's child_process.fork (the tests) it speaks
 * over process.send instead of process.parentPort.
 */
import { randomBytes } from 'node:crypto';
import { ensureOrganization } from '../server/bootstrap.js';
import type { Logger } from '../server/core/context.js';
import {
  type DesktopHost,
  type DesktopStatus,
  desktopListenChoice,
  type ListenChoice,
  readDesktopSettings,
} from '../server/hosting/index.js';
import {
  consoleLogger,
  createServer,
  DataDirInUseError,
  type RunningServer,
  TlsSetupError,
} from '../server/index.js';
import { tlsOf } from '../server/tls/index.js';
import { createAppRouter, ownerContext, runIpcOperation } from '../server/trpc/index.js';
import {
  CONFIG_ARG,
  type FromServer,
  type ServerProcessConfig,
  type ToServer,
} from './server-messages.js';

interface ParentPort {
  postMessage(message: FromServer): void;
  on(event: 'message', listener: (event: { data: ToServer }) => void): void;
}

/** The channel to the main process: Electron's parent port, or Node's IPC. */
function parentChannel() {
  const port = (process as unknown as { parentPort?: ParentPort }).parentPort;
  if (port) {
    return {
      send: (message: FromServer) => port.postMessage(message),
      onMessage: (listener: (message: ToServer) => void) =>
        port.on('message', (event) => listener(event.data)),
    };
  }
  if (!process.send) throw new Error('server-process.ts runs as a child of the desktop app');
  return {
    send: (message: FromServer) => process.send?.(message),
    onMessage: (listener: (message: ToServer) => void) =>
      process.on('message', (message) => listener(message as ToServer)),
  };
}

function readConfig(): ServerProcessConfig {
  const arg = process.argv.find((a) => a.startsWith(CONFIG_ARG));
  if (!arg) throw new Error('missing the server process configuration');
  return JSON.parse(arg.slice(CONFIG_ARG.length)) as ServerProcessConfig;
}

/**
 * Opens /admin/ and /trpc on the desktop's server, so administrators reach
 * the admin pages from their browsers with their chat login (Basic). The
 * token itself is never shown: the desktop's window uses IPC instead.
 */
const adminToken = randomBytes(32).toString('base64url');

/** The first of `ports` that is free, else any free port. */
async function listen(
  config: ServerProcessConfig,
  options: {
    host: string;
    externalUrl?: string;
    tlsCertificate?: ListenChoice['tlsCertificate'];
    log: Logger;
  },
): Promise<RunningServer> {
  for (const port of [...new Set(config.ports)]) {
    try {
      return await createServer({ dataDir: config.dataDir, ...options, adminToken, port });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      options.log.warn(`port ${port} is taken`);
    }
  }
  return createServer({ dataDir: config.dataDir, ...options, adminToken, port: 0 });
}

const channel = parentChannel();

/** What answers the main process once the server runs; until then only a stop is kept. */
let handleMessage: ((message: ToServer) => void) | null = null;
let stopBeforeReady = false;
channel.onMessage((message) => {
  if (handleMessage) handleMessage(message);
  else if (message.type === 'stop') stopBeforeReady = true;
});

/**
 * Starts on the saved settings. When TLS cannot be set up for the LAN (a
 * damaged certificate authority, a certificate file gone bad), serves this
 * machine only and says why: the owner sees it in the window and chooses on
 * the Network page, rather than facing a server that never starts.
 */
async function start(config: ServerProcessConfig): Promise<{
  server: RunningServer;
  choice: ListenChoice;
}> {
  const choice = desktopListenChoice(readDesktopSettings(config.dataDir));
  const options = {
    host: choice.host,
    ...(choice.externalUrl ? { externalUrl: choice.externalUrl } : {}),
    ...(choice.tlsCertificate ? { tlsCertificate: choice.tlsCertificate } : {}),
    log: consoleLogger,
  };
  try {
    return { server: await listen(config, options), choice };
  } catch (err) {
    if (!(err instanceof TlsSetupError)) throw err;
    const local: ListenChoice = {
      host: '127.0.0.1',
      ...(choice.externalUrl ? { externalUrl: choice.externalUrl } : {}),
      warning: `${err.message} Serving this computer only until that is resolved on the Network page.`,
    };
    const { tlsCertificate: _unused, ...rest } = options;
    return { server: await listen(config, { ...rest, host: local.host }), choice: local };
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const { server, choice } = await start(config);
  const { ctx } = server;
  if (choice.warning) ctx.log.warn(choice.warning);
  process.on('uncaughtException', (err) => {
    // On disk before the process dies; the main process restarts it.
    ctx.log.error('The server crashed', err);
    process.exit(1);
  });

  // The window's first-run wizard creates the organization with the owner's own
  // password: a generated one would be shown nowhere and lost.
  const boot = await ensureOrganization(server, { demo: false, deferToWizard: true });
  if ('needsSetup' in boot) ctx.log.info('No organization yet: the first-run wizard sets it up');

  let status: DesktopStatus | null = null;
  let restartAfterAnswer = false;
  let nextOpenId = 1;
  const opening = new Map<number, (error: string) => void>();
  const desktop: DesktopHost = {
    status: (): DesktopStatus =>
      status ?? {
        state: 'running',
        url: server.url,
        tlsFingerprint: tlsOf(ctx)?.fingerprint ?? null,
        port: server.port,
        preferredPort: config.preferredPort,
        portFallback: server.port !== config.preferredPort,
        host: choice.host,
        dataDir: config.dataDir,
        startedAt: new Date(ctx.config.startedAtMs).toISOString(),
        restarts: 0,
        lastError: null,
      },
    restartServer: () => {
      restartAfterAnswer = true;
    },
    openFolder: (folder) =>
      new Promise<string>((resolve) => {
        const id = nextOpenId++;
        opening.set(id, resolve);
        channel.send({ type: 'open-path', id, path: folder });
      }),
  };
  const router = createAppRouter();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    ctx.log.info('Stopping the server');
    void server.close().finally(() => process.exit(0));
  };
  // Quit came while starting (a migration, say): stop now that it is safe to.
  if (stopBeforeReady) {
    stop();
    return;
  }

  handleMessage = (message) => {
    if (message.type === 'status') status = message.status;
    else if (message.type === 'trpc') {
      void runIpcOperation(
        router,
        () => ownerContext(ctx, server.zuliprcPath, desktop),
        message.operation,
      ).then((response) => {
        channel.send({ type: 'trpc-result', id: message.id, response });
        if (restartAfterAnswer) {
          restartAfterAnswer = false;
          channel.send({ type: 'restart' });
        }
      });
    } else if (message.type === 'open-path-result') {
      opening.get(message.id)?.(message.error);
      opening.delete(message.id);
    } else if (message.type === 'stop') stop();
  };
  // Under Node's IPC the parent can vanish without a word (Electron kills its utility processes).
  process.on('disconnect', () => {
    void server.close().finally(() => process.exit(0));
  });

  channel.send({
    type: 'ready',
    url: server.url,
    localUrl: server.localUrl,
    port: server.port,
    tlsFingerprint: tlsOf(ctx)?.fingerprint ?? null,
    host: choice.host,
    portFallback: server.port !== config.preferredPort,
    warning: choice.warning ?? null,
  });
}

main().catch((err: unknown) => {
  if (err instanceof DataDirInUseError) {
    // No crash: the desktop offers the running server instead.
    const holder = err.holder && {
      pid: err.holder.pid,
      url: err.holder.url,
      localUrl: err.holder.localUrl,
    };
    channel.send({ type: 'in-use', message: err.message, holder });
  } else {
    // E.g. a database from a newer Hearth: the supervisor shows why.
    console.error('The Hearth server could not start', err);
    channel.send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
  // Messages leave asynchronously: give this one time to reach the main process.
  setTimeout(() => process.exit(1), 200);
});
