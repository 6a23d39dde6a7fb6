/**
 * How many connections the server keeps open at once, so that one client
 * cannot take every file descriptor (each socket is one) and lock everyone
 * out, the owner included. A connection over the limits is closed as soon
 * as it is accepted: the client sees it closed at once, never a hang.
 *
 * - Per address (other than this machine's): PER_ADDRESS_LIMIT (128). One
 *   person's devices need about 20: a browser opens up to 6 connections per
 *   origin (one or two held by the events long-poll), the Zulip desktop app
 *   as many, a phone a few, a bot one or two. 128 leaves room for a small
 *   office or a VPN behind one NAT address (some 20 people), while one
 *   address holds at most a sixth of a 1,024-descriptor budget, and taking
 *   the whole budget needs many addresses.
 * - This machine (127.0.0.1, ::1: the desktop window, the owner's browser
 *   and local bots, all one address) has no per-address limit, and a
 *   reserve (LOOPBACK_RESERVE) no other address may use: a LAN flood cannot
 *   lock the owner out. A reverse proxy on this machine counts as this
 *   machine: its clients share the whole budget.
 * - In all: what the process's open-file limit allows, less room for the
 *   database, logs, uploads and outgoing requests.
 *
 * Node raises its soft open-file limit to the hard limit at start-up (the
 * CLI), and Electron's browser process raises it to 8192 (at most the hard
 * limit) before it starts the server's utility process, which inherits it.
 * Beyond the hard limit only the user can go (`ulimit -n`, see README).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../core/context.js';

export interface ConnectionLimits {
  /** Connections open at once from one address other than this machine's. */
  perAddress: number;
  /** Connections open at once, in all. */
  total: number;
  /** Of `total`, what only this machine's connections may use. */
  loopbackReserve: number;
}

export const PER_ADDRESS_LIMIT = 128;
export const LOOPBACK_RESERVE = 64;
/** Descriptors kept for files and outgoing requests, at most (a quarter of a small limit). */
const FILE_HEADROOM = 256;
/** Where the OS has no per-process descriptor limit to read (Windows). */
const UNKNOWN_LIMIT_BUDGET = 8192;

/**
 * The process's soft open-file limit (Linux: /proc; other POSIX systems: a
 * shell's `ulimit -n`, which inherits it); null where there is none to read.
 */
export function openFileLimit(): number | null {
  try {
    if (process.platform === 'linux') {
      const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
      if (line) return line[1] === 'unlimited' ? null : Number(line[1]);
    } else if (process.platform !== 'win32') {
      const out = spawnSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8', timeout: 2000 });
      const value = out.stdout?.trim();
      if (value && /^\d+$/.test(value)) return Number(value);
    }
  } catch {
    // Unreadable: fall through to the fixed budget.
  }
  return null;
}

/** The limits for an open-file limit (null: none known). */
export function connectionLimitsFor(fileLimit: number | null): ConnectionLimits {
  const total =
    fileLimit === null
      ? UNKNOWN_LIMIT_BUDGET
      : Math.max(16, fileLimit - Math.min(FILE_HEADROOM, Math.floor(fileLimit / 4)));
  const loopbackReserve = Math.min(LOOPBACK_RESERVE, Math.floor(total / 4));
  return {
    total,
    loopbackReserve,
    perAddress: Math.min(PER_ADDRESS_LIMIT, total - loopbackReserve),
  };
}

/** Where this machine's own clients connect from. */
const isThisMachine = (address: string) => address === '127.0.0.1' || address === '::1';

/** IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d. */
const plainAddress = (address: string) =>
  address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;

/** A line in the log per refused address, at most this often. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

/** Applies the limits to every connection the server accepts from now on. */
export function capConnections(server: Server, limits: ConnectionLimits, log: Logger): void {
  const open = new Map<string, number>();
  let total = 0;
  let fromElsewhere = 0;
  const lastLogged = new Map<string, number>();

  const refusal = (address: string): string | null => {
    if (total >= limits.total) return `${limits.total} connections are open in all`;
    if (isThisMachine(address)) return null;
    if (fromElsewhere >= limits.total - limits.loopbackReserve) {
      return `${fromElsewhere} connections from other machines are open in all`;
    }
    if ((open.get(address) ?? 0) >= limits.perAddress) {
      return `${limits.perAddress} connections from it are open (the limit per address)`;
    }
    return null;
  };

  const noteRefusal = (address: string, why: string) => {
    const now = Date.now();
    if (now - (lastLogged.get(address) ?? Number.NEGATIVE_INFINITY) < REFUSAL_LOG_INTERVAL_MS) {
      return;
    }
    if (lastLogged.size > 1000) lastLogged.clear();
    lastLogged.set(address, now);
    log.warn(`Refusing connections from ${address}: ${why}`);
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ? plainAddress(socket.remoteAddress) : null;
    const why = address === null ? 'gone' : refusal(address);
    if (address === null || why !== null) {
      if (address !== null && why !== null) noteRefusal(address, why);
      socket.destroy();
      return;
    }
    const local = isThisMachine(address);
    open.set(address, (open.get(address) ?? 0) + 1);
    total++;
    if (!local) fromElsewhere++;
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
      total--;
      if (!local) fromElsewhere--;
    });
  });
}
