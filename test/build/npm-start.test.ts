/**
 * `npm start` runs the compiled server with plain node (no TypeScript
 * loader in the chain) as npm's direct child (the script's shell execs
 * it), and the chain stops as a whole whichever of its processes gets the
 * signal: the port is free shortly after and the database is closed cleanly.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/build.js';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';
import { BUILD_TIMEOUT_MS, built, portFreedWithin, type Started, session } from './process.js';

const run = session();

beforeAll(async () => {
  await built();
}, BUILD_TIMEOUT_MS);

/** pid -> parent pid and command line, for every process (Linux /proc). */
function processTable(): Map<number, { ppid: number; cmd: string }> {
  const table = new Map<number, { ppid: number; cmd: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may contain spaces and parentheses: the fields follow the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      table.set(Number(name), { ppid, cmd });
    } catch {
      // exited meanwhile
    }
  }
  return table;
}

/** The processes below `pid`, parents first. */
function descendants(pid: number): { pid: number; cmd: string }[] {
  const table = processTable();
  const found: { pid: number; cmd: string }[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, info] of table) {
      if (info.ppid !== parent) continue;
      found.push({ pid: child, cmd: info.cmd });
      queue.push(child);
    }
  }
  return found;
}

/** Running (a zombie nobody reaped has stopped running). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

interface Chain {
  npm: Started;
  server: number;
  port: number;
  dataDir: string;
}

async function npmStart(): Promise<Chain> {
  const dataDir = run.dataDir();
  // Its own process group, so that the session can clean up whatever is left.
  const npm = run.start('npm', ['start', '--', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    detached: true,
  });
  const { port } = await npm.listening();
  const below = descendants(npm.child.pid!);
  // No shell in between: dash would not pass on a signal npm forwards to it.
  if (below.length !== 1) throw new Error(`unexpected process chain: ${JSON.stringify(below)}`);
  return { npm, server: below[0]!.pid, port, dataDir };
}

/** After a clean close SQLite has checkpointed its write-ahead log into the database. */
function closedCleanly(dataDir: string): boolean {
  const wal = path.join(dataDir, 'hearth.sqlite-wal');
  return !existsSync(wal) || statSync(wal).size === 0;
}

describe.skipIf(process.platform !== 'linux')('npm start', () => {
  it("runs node dist/server/cli.js with the server's V8 flags, no TypeScript loader in the chain", {
    timeout: BUILD_TIMEOUT_MS,
  }, async () => {
    const chain = await npmStart();
    const below = descendants(chain.npm.child.pid!);
    expect(below.map((p) => p.cmd).join('\n')).not.toMatch(/tsx|--import|--loader/);
    const server = below.find((p) => p.pid === chain.server)!;
    // With the server's V8 flags (server/node-flags.ts), which package.json spells out.
    expect(server.cmd).toMatch(/^\S*node (\S+ )*dist\/server\/cli\.js --port 0 --data-dir /);
    expect(server.cmd.split(' dist/server/cli.js')[0]!.split(' ').slice(1)).toEqual(
      SERVER_NODE_FLAGS,
    );
    process.kill(chain.server, 'SIGTERM');
    expect(await chain.npm.exited).toEqual({ code: 0, signal: null });
  });

  describe.concurrent('stops as a whole', () => {
    const cases: [string, NodeJS.Signals, (c: Chain) => number][] = [
      ['npm', 'SIGTERM', (c) => c.npm.child.pid!],
      ['npm', 'SIGINT', (c) => c.npm.child.pid!],
      ['npm', 'SIGKILL', (c) => c.npm.child.pid!],
      ['the server', 'SIGTERM', (c) => c.server],
      ['the server', 'SIGINT', (c) => c.server],
    ];
    for (const [who, signal, target] of cases) {
      it(`when ${who} alone gets ${signal}`, { timeout: BUILD_TIMEOUT_MS }, async () => {
        const chain = await npmStart();
        process.kill(target(chain), signal);
        const freedAfter = await portFreedWithin(chain.port, 5000);
        expect(freedAfter, `port ${chain.port} still taken`).not.toBeNull();
        await chain.npm.exited;
        // The server closed itself (it was not killed): the database is checkpointed.
        for (let i = 0; i < 40 && alive(chain.server); i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(alive(chain.server)).toBe(false);
        expect(closedCleanly(chain.dataDir)).toBe(true);
      });
    }
  });
});
