/**
 * One server per data directory (issue 20, point 2): a second server for a
 * directory another process serves refuses to start, naming the running one
 * (its URL and process id); the lock dies with its process, even by kill -9.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cliSession } from './process.js';

const cli = cliSession();

it('a second server on the same data directory is refused, naming the running one', async () => {
  const dir = cli.dataDir();
  const first = cli.start(['--data-dir', dir, '--port', '0']);
  const url = await first.listening();
  const holder = JSON.parse(readFileSync(path.join(dir, 'hearth.lock.json'), 'utf8'));
  expect(holder).toMatchObject({ pid: first.pid, url, localUrl: url });

  const second = cli.start(['--data-dir', dir, '--port', '0']);
  expect(await second.exited).toEqual({ code: 1, signal: null });
  expect(second.stderr.trim()).toBe(
    `Another Hearth server (${url}, process ${first.pid}) is already serving ${dir}. ` +
      'Use that one, stop it first, or give another data directory (--data-dir).',
  );
  expect(second.stdout).not.toMatch(/Hearth listening/);
  // The refused start changed nothing: the first still serves, and still owns the record.
  const res = await fetch(`${url}/api/v1/server_settings`);
  expect(res.status).toBe(200);
  expect(JSON.parse(readFileSync(path.join(dir, 'hearth.lock.json'), 'utf8')).pid).toBe(first.pid);

  // A clean stop lets the next server start, and takes its record along.
  first.signal('SIGTERM');
  expect(await first.exited).toEqual({ code: 0, signal: null });
  expect(existsSync(path.join(dir, 'hearth.lock.json'))).toBe(false);
  const third = cli.start(['--data-dir', dir, '--port', '0']);
  await third.listening();
  await third.stop();
}, 60_000);

it('the lock is freed when its server is killed outright (kill -9)', async () => {
  const dir = cli.dataDir();
  const first = cli.start(['--data-dir', dir, '--port', '0']);
  await first.listening();
  first.signal('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  // Its record stays behind (nobody removed it); the lock does not.
  expect(existsSync(path.join(dir, 'hearth.lock.json'))).toBe(true);

  const next = cli.start(['--data-dir', dir, '--port', '0']);
  const url = await next.listening();
  expect(JSON.parse(readFileSync(path.join(dir, 'hearth.lock.json'), 'utf8'))).toMatchObject({
    pid: next.pid,
    url,
  });
  await next.stop();
}, 60_000);
