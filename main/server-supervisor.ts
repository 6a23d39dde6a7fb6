/**
 * Runs the server process and keeps it running: the ready handshake, crash
 * restarts with backoff, restarts on new network settings, a clean stop on
 * quit, and relaying the window's tRPC calls. Its status is what the tray
 * shows and what desktop.status answers.
 */
import { EventEmitter } from 'node:events';
import superjson from 'superjson';
import type { DesktopStatus } from '../server/hosting/index.js';
import type { IpcOperation, IpcResponse } from '../server/trpc/index.js';
import {
  CONFIG_ARG,
  type DataDirHolder,
  type FromServer,
  type ReadyReport,
  type ServerProcessConfig,
  type ToServer,
} from './server-messages.js';

/** What the supervisor needs of Electron's UtilityProcess. */
export interface ServerChild {
  postMessage(message: ToServer): void;
  kill(): boolean;
  on(event: 'message', listener: (message: FromServer) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
}

export type ForkServer = (entry: string, args: string[]) => ServerChild;

export interface SupervisorOptions {
  entry: string;
  fork: ForkServer;
  dataDir: string;
  preferredPort: number;
  /** First restart delay after a crash, doubled per crash in a row up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Running this long clears the crash streak (the backoff starts over). */
  stableAfterMs?: number;
  /** Crashes in a row after which the supervisor gives up (state 'stopped'). */
  maxCrashStreak?: number;
  /** How long a stopping server may take before it is killed. */
  stopTimeoutMs?: number;
  /** How long a call waits for a starting server before it fails. */
  callTimeoutMs?: number;
  log?: (message: string) => void;
  /** Electron's shell.openPath: an empty string when the folder opened, else why not. */
  openPath?: (folder: string) => Promise<string>;
}

interface PendingCall {
  operation: IpcOperation;
  resolve(response: IpcResponse): void;
}

/** An error answer on the window's IPC wire, made here when no server can answer. */
export function unavailableResponse(operation: IpcOperation, message: string): IpcResponse {
  return {
    id: operation.id,
    error: superjson.serialize({
      message,
      code: -32603,
      data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503, path: operation.path, zulip: null },
    }),
  };
}

const dataResponse = (operation: IpcOperation, data: unknown): IpcResponse => ({
  id: operation.id,
  result: { type: 'data', data: superjson.serialize(data) },
});

export class ServerSupervisor extends EventEmitter<{
  status: [DesktopStatus];
  /** Another server serves the data directory: this one stopped without starting. */
  'in-use': [DataDirHolder | null];
}> {
  private child: ServerChild | null = null;
  private ready: ReadyReport | null = null;
  private current: DesktopStatus;
  private crashStreak = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private stableTimer: NodeJS.Timeout | null = null;
  /** Set while a requested stop or restart is under way (an exit then is no crash). */
  private intent: 'stop' | 'restart' | null = null;
  private exited: Promise<void> = Promise.resolve();
  private lastPort: number | null = null;
  private nextCallId = 1;
  /** Calls sent to the server process, by the id used on the message port. */
  private readonly inFlight = new Map<number, PendingCall>();
  /** Calls waiting for the server to be ready. */
  private queued: Array<PendingCall & { timer: NodeJS.Timeout }> = [];
  private readonly options: Required<Omit<SupervisorOptions, 'log' | 'openPath'>> & {
    log: (message: string) => void;
    openPath?: (folder: string) => Promise<string>;
  };

  constructor(options: SupervisorOptions) {
    super();
    this.options = {
      initialDelayMs: 500,
      maxDelayMs: 30_000,
      stableAfterMs: 60_000,
      maxCrashStreak: 8,
      stopTimeoutMs: 15_000,
      callTimeoutMs: 60_000,
      log: () => {},
      ...options,
    };
    this.current = {
      state: 'stopped',
      url: null,
      tlsFingerprint: null,
      port: null,
      preferredPort: options.preferredPort,
      portFallback: false,
      host: null,
      dataDir: options.dataDir,
      startedAt: null,
      restarts: 0,
      lastError: null,
    };
  }

  status(): DesktopStatus {
    return { ...this.current };
  }

  /** How this machine reaches the running server (loopback when it listens on all addresses). */
  localUrl(): string | null {
    return this.ready?.localUrl ?? null;
  }

  start(): void {
    if (this.child || this.intent === 'stop') return;
    this.update({ state: this.current.restarts > 0 ? 'restarting' : 'starting' });
    this.spawn();
  }

  /** Stops the server cleanly (it closes the database); kills it if it hangs. */
  async stop(): Promise<void> {
    this.intent = 'stop';
    this.clearTimers();
    await this.stopChild();
    this.failQueued('The Hearth server has stopped');
    this.update({
      state: 'stopped',
      url: null,
      tlsFingerprint: null,
      port: null,
      host: null,
      startedAt: null,
    });
  }

  /** Stops and starts the server again (new network settings); not counted as a crash. */
  async restart(): Promise<void> {
    if (this.intent === 'stop') return;
    this.intent = 'restart';
    this.clearTimers();
    this.update({ state: 'restarting' });
    await this.stopChild();
    if (this.intent !== 'restart') return; // quitting meanwhile
    this.intent = null;
    this.crashStreak = 0;
    this.spawn();
  }

  /** Relays one window call; answers desktop.status itself while no server runs. */
  call(operation: IpcOperation): Promise<IpcResponse> {
    if (!this.ready && operation.type === 'query' && operation.path === 'desktop.status') {
      return Promise.resolve(dataResponse(operation, this.status()));
    }
    if (this.current.state === 'stopped') {
      return Promise.resolve(
        unavailableResponse(
          operation,
          this.current.lastError ?? 'The Hearth server is not running',
        ),
      );
    }
    return new Promise((resolve) => {
      const pending = { operation, resolve };
      if (this.ready && this.child) this.send(pending);
      else {
        const timer = setTimeout(() => {
          this.queued = this.queued.filter((q) => q.timer !== timer);
          resolve(unavailableResponse(operation, 'The Hearth server did not start in time'));
        }, this.options.callTimeoutMs);
        this.queued.push({ ...pending, timer });
      }
    });
  }

  private send(pending: PendingCall): void {
    const id = this.nextCallId++;
    this.inFlight.set(id, pending);
    this.child?.postMessage({ type: 'trpc', id, operation: pending.operation });
  }

  private spawn(): void {
    const config: ServerProcessConfig = {
      dataDir: this.options.dataDir,
      ports: [this.options.preferredPort, ...(this.lastPort ? [this.lastPort] : [])],
      preferredPort: this.options.preferredPort,
    };
    const child = this.options.fork(this.options.entry, [`${CONFIG_ARG}${JSON.stringify(config)}`]);
    this.child = child;
    this.ready = null;
    let failure: string | null = null;
    let inUse: { message: string; holder: DataDirHolder | null } | null = null;
    this.exited = new Promise((resolve) => {
      child.on('exit', (code) => {
        if (inUse) this.onInUse(child, inUse.message, inUse.holder);
        else this.onExit(child, code, failure);
        resolve();
      });
    });
    child.on('message', (message) => {
      if (this.child !== child) return;
      if (message.type === 'ready') this.onReady(message);
      else if (message.type === 'trpc-result') {
        const pending = this.inFlight.get(message.id);
        this.inFlight.delete(message.id);
        pending?.resolve(message.response);
      } else if (message.type === 'restart') void this.restart();
      else if (message.type === 'failed') failure = message.message;
      else if (message.type === 'in-use') inUse = message;
      else if (message.type === 'open-path') void this.openPath(child, message.id, message.path);
    });
  }

  private async openPath(child: ServerChild, id: number, folder: string): Promise<void> {
    let error: string;
    try {
      error = this.options.openPath
        ? await this.options.openPath(folder)
        : 'Folders open only in the desktop app';
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    if (this.child === child) child.postMessage({ type: 'open-path-result', id, error });
  }

  private onReady(report: ReadyReport): void {
    this.ready = report;
    this.lastPort = report.port;
    this.update({
      state: 'running',
      url: report.url,
      tlsFingerprint: report.tlsFingerprint,
      port: report.port,
      host: report.host,
      portFallback: report.portFallback,
      startedAt: new Date().toISOString(),
      lastError: report.warning,
    });
    this.options.log(`Hearth server ready at ${report.url}`);
    this.stableTimer = setTimeout(() => {
      this.crashStreak = 0;
    }, this.options.stableAfterMs);
    this.stableTimer.unref?.();
    const queued = this.queued;
    this.queued = [];
    for (const { timer, ...pending } of queued) {
      clearTimeout(timer);
      this.send(pending);
    }
  }

  private onExit(child: ServerChild, code: number, failure: string | null): void {
    if (this.child !== child) return;
    this.child = null;
    this.ready = null;
    if (this.stableTimer) clearTimeout(this.stableTimer);
    for (const [, pending] of this.inFlight) {
      pending.resolve(unavailableResponse(pending.operation, 'The Hearth server stopped'));
    }
    this.inFlight.clear();
    if (this.intent) return; // a stop or restart asked for: no crash
    const reason = failure ?? `The server process exited (code ${code})`;
    this.crashStreak++;
    this.options.log(`Hearth server exited unexpectedly: ${reason}`);
    if (this.crashStreak >= this.options.maxCrashStreak) {
      this.failQueued(reason);
      this.update({
        state: 'stopped',
        url: null,
        tlsFingerprint: null,
        port: null,
        host: null,
        startedAt: null,
        lastError: reason,
      });
      return;
    }
    const delay = Math.min(
      this.options.initialDelayMs * 2 ** (this.crashStreak - 1),
      this.options.maxDelayMs,
    );
    this.update({
      state: 'restarting',
      restarts: this.current.restarts + 1,
      startedAt: null,
      lastError: reason,
    });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.intent) this.spawn();
    }, delay);
  }

  /**
   * The data directory is another server's: starting again would meet the
   * same lock, so no restart; the shell decides (open that server, or quit).
   */
  private onInUse(child: ServerChild, message: string, holder: DataDirHolder | null): void {
    if (this.child !== child) return;
    this.child = null;
    this.ready = null;
    if (this.intent) return; // a stop or restart asked for meanwhile
    this.options.log(message);
    this.failQueued(message);
    this.update({
      state: 'stopped',
      url: null,
      tlsFingerprint: null,
      port: null,
      host: null,
      startedAt: null,
      lastError: message,
    });
    this.emit('in-use', holder);
  }

  private async stopChild(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = this.exited;
    child.postMessage({ type: 'stop' });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.options.stopTimeoutMs);
    });
    if ((await Promise.race([exited, timedOut])) === 'timeout') {
      this.options.log('The Hearth server did not stop in time; killing it');
      child.kill();
      await exited;
    }
    clearTimeout(timer);
  }

  private failQueued(message: string): void {
    for (const { timer, operation, resolve } of this.queued) {
      clearTimeout(timer);
      resolve(unavailableResponse(operation, message));
    }
    this.queued = [];
  }

  private clearTimers(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    if (this.stableTimer) clearTimeout(this.stableTimer);
    this.restartTimer = null;
  }

  private update(change: Partial<DesktopStatus>): void {
    this.current = { ...this.current, ...change };
    const status = this.status();
    if (this.ready) this.child?.postMessage({ type: 'status', status });
    this.emit('status', status);
  }
}
