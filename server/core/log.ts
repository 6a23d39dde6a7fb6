/**
 * The server's log file: `<data dir>/logs/hearth.log`, JSON lines written by
 * pino, rotated by size and by day into hearth.log.1 (newest) ... .N. The
 * current file keeps one name so users and support can always find it.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { Logger } from './context.js';

export const LOGS_DIR = 'logs';
export const LOG_FILE = 'hearth.log';
/**
 * Logs name people and channels and hold requests' paths: owner-only, like
 * the database, whatever the umask and whatever an older version left.
 */
const LOG_DIR_MODE = 0o700;
const LOG_FILE_MODE = 0o600;

export interface LogFileOptions {
  /** Bytes after which the file is rotated (default 10 MiB). */
  maxBytes?: number;
  /** Rotated files kept besides the current one (default 5). */
  keep?: number;
  /** Milliseconds since the epoch; tests move the day. */
  now?: () => number;
}

/** The logger the server writes through, plus what its owner needs to end it. */
export interface FileLog {
  logger: Logger;
  /** One request: method, path (secrets redacted), status, duration. */
  request(entry: RequestLogEntry): void;
  file: string;
  /** Writes what is buffered, so a reader sees every line logged so far. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

const localDay = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
};

/** Log text kept in memory while the file cannot be written; beyond it, lines are dropped. */
const MAX_UNWRITTEN_BYTES = 1024 * 1024;

/**
 * A pino destination that rotates. pino-roll numbers even the current file,
 * which would leave no stable `hearth.log`; renaming on rotation keeps it.
 *
 * Writing the log never fails a caller: the log is written from error
 * handlers, and a full disk (ENOSPC) must not turn a request's JSON error
 * into fastify's own. While the file cannot be written, up to 1 MiB waits
 * in memory and is written first once it can; lines beyond are counted, and
 * the count is logged when writing works again (a rotation reopens the file,
 * so a log that was moved off a failing disk recovers too).
 */
class RotatingFile {
  private readonly dest: pino.DestinationStream & {
    reopen(file?: string): void;
    flush(cb?: (err?: Error) => void): void;
    flushSync(): void;
    end(): void;
    destroy(): void;
    on(event: string, listener: (arg: never) => void): unknown;
    once(event: string, listener: () => void): unknown;
  };
  private bytes: number;
  private day: string;
  /** The error of the last failed write, until one succeeds. */
  private failure: NodeJS.ErrnoException | null = null;
  private dropped = 0;

  constructor(
    readonly file: string,
    private readonly maxBytes: number,
    private readonly keep: number,
    private readonly now: () => number,
  ) {
    const existing = existsSync(file) ? statSync(file) : null;
    this.bytes = existing?.size ?? 0;
    this.day = localDay(existing?.mtimeMs ?? now());
    // Synchronous: a line logged just before a crash is on disk for the
    // supervisor and the user; the server logs a line per request at most.
    this.dest = pino.destination({
      dest: file,
      sync: true,
      mkdir: true,
      maxLength: MAX_UNWRITTEN_BYTES,
      mode: LOG_FILE_MODE,
    }) as never;
    for (let n = 0; n <= keep; n++) {
      const name = n === 0 ? file : `${file}.${n}`;
      if (existsSync(name)) chmodSync(name, LOG_FILE_MODE);
    }
    // Without a listener, sonic-boom throws a failed write at the caller.
    this.dest.on('error', (err: NodeJS.ErrnoException) => {
      this.failure = err;
    });
    this.dest.on('drop', () => {
      this.dropped += 1;
    });
  }

  write(chunk: string): void {
    try {
      const length = Buffer.byteLength(chunk);
      const today = localDay(this.now());
      if (this.bytes > 0 && (this.bytes + length > this.maxBytes || today !== this.day)) {
        this.rotate();
      }
      this.day = today;
      this.bytes += length;
      const failedBefore = this.failure;
      this.failure = null;
      this.dest.write(chunk);
      if (failedBefore !== null && this.failure === null) this.noteRecovery(failedBefore);
    } catch (err) {
      this.failure = err as NodeJS.ErrnoException;
    }
  }

  /** The first line that reached the file after a failure says what was lost. */
  private noteRecovery(failure: NodeJS.ErrnoException): void {
    const lost = this.dropped;
    this.dropped = 0;
    const what = lost > 0 ? `${lost} log lines were lost` : 'log lines were delayed';
    const line = JSON.stringify({
      level: 40,
      time: new Date(this.now()).toISOString(),
      pid: process.pid,
      msg: `The log file could not be written (${failure.code ?? failure.message}); ${what}`,
    });
    this.bytes += line.length + 1;
    this.dest.write(`${line}\n`);
  }

  private rotate(): void {
    rmSync(`${this.file}.${this.keep}`, { force: true });
    for (let n = this.keep - 1; n >= 1; n--) {
      if (existsSync(`${this.file}.${n}`)) renameSync(`${this.file}.${n}`, `${this.file}.${n + 1}`);
    }
    if (existsSync(this.file)) renameSync(this.file, `${this.file}.1`);
    this.dest.reopen();
    this.bytes = 0;
  }

  flush(): Promise<void> {
    return new Promise((resolve) => {
      try {
        this.dest.flush(() => resolve());
      } catch {
        resolve();
      }
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.failure !== null) {
        // What could not be written never will be: ending would wait for it.
        this.dest.destroy();
        resolve();
        return;
      }
      this.dest.once('close', resolve);
      this.dest.end();
    });
  }
}

/** Query parameters whose values are credentials or capabilities. */
const SECRET_PARAM = /key|pass|token|secret|auth|jwt|otp|session|signature|code/i;

/**
 * The request's path for the log: the query string keeps its parameter names,
 * but credentials are replaced (GET /user_uploads accepts `api_key`, for one).
 */
export function loggablePath(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  const parts = [...params].map(([name, value]) =>
    SECRET_PARAM.test(name) ? `${name}=[redacted]` : `${name}=${value}`,
  );
  return `${url.slice(0, query)}?${parts.join('&')}`;
}

/** Whatever an error logs, credentials it carries are never written. */
const REDACT = [
  'password',
  'api_key',
  'apiKey',
  'key',
  'token',
  'authorization',
  '*.password',
  '*.api_key',
  '*.apiKey',
  '*.key',
  '*.token',
  '*.authorization',
  '*.headers.authorization',
];

/** Opens (creating) `<dataDir>/logs/hearth.log` for this run's log. */
export function openFileLog(dataDir: string, options: LogFileOptions = {}): FileLog {
  const dir = path.join(dataDir, LOGS_DIR);
  mkdirSync(dir, { recursive: true, mode: LOG_DIR_MODE });
  chmodSync(dir, LOG_DIR_MODE);
  const file = path.join(dir, LOG_FILE);
  const sink = new RotatingFile(
    file,
    options.maxBytes ?? 10 * 1024 * 1024,
    options.keep ?? 5,
    options.now ?? Date.now,
  );
  const log = pino(
    {
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    sink,
  );
  return {
    file,
    logger: {
      info: (msg) => log.info(msg),
      warn: (msg) => log.warn(msg),
      error: (msg, err) => (err === undefined ? log.error(msg) : log.error({ err }, msg)),
    },
    request: ({ method, path: requestPath, status, durationMs }) => {
      const ms = Math.round(durationMs * 10) / 10;
      log.info(
        { req: { method, path: requestPath, status, ms } },
        `${method} ${requestPath} ${status} ${ms}ms`,
      );
    },
    flush: () => sink.flush(),
    close: () => sink.close(),
  };
}

/** Both loggers get every line (e.g. the console, and the file); one failing stops neither. */
export function teeLogger(a: Logger, b: Logger): Logger {
  const both = (line: (logger: Logger) => void) => {
    for (const logger of [a, b]) {
      try {
        line(logger);
      } catch {
        // Logging never fails what is being logged (a request's error answer).
      }
    }
  };
  return {
    info: (msg) => both((l) => l.info(msg)),
    warn: (msg) => both((l) => l.warn(msg)),
    error: (msg, err) => both((l) => l.error(msg, err)),
  };
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** A JSON log line as people read it: time, level, message, and the error if any. */
export function formatLogLine(line: string): string {
  try {
    const entry = JSON.parse(line) as {
      time?: string;
      level?: number;
      msg?: string;
      err?: { message?: string };
    };
    const level = LEVELS[entry.level ?? 30] ?? String(entry.level);
    const err = entry.err?.message ? `: ${entry.err.message}` : '';
    return `${entry.time ?? ''} ${level} ${entry.msg ?? ''}${err}`;
  } catch {
    return line;
  }
}

/** The last `bytes` of a file, as text (the first, partial, line dropped). */
function tail(file: string, bytes: number): string[] {
  if (!existsSync(file)) return [];
  const size = statSync(file).size;
  const start = Math.max(0, size - bytes);
  const buffer = Buffer.alloc(size - start);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, start);
  } finally {
    closeSync(fd);
  }
  const lines = buffer.toString('utf8').split('\n');
  if (start > 0) lines.shift();
  return lines.filter((line) => line.length > 0);
}

/** The newest `count` lines of the log, oldest first, reaching into the last rotated file. */
export function recentLogLines(file: string, count: number): string[] {
  // Log lines are short; this bounds the read however long a line gets.
  const budget = Math.max(64 * 1024, count * 2048);
  let lines = tail(file, budget);
  if (lines.length < count) lines = [...tail(`${file}.1`, budget), ...lines];
  return lines.slice(-count).map(formatLogLine);
}
