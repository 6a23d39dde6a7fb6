import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/server.js';
import { type CliProcess, cliSession, LISTENING, parseZuliprc } from './process.js';

const cli = cliSession();
const dataDir = cli.dataDir();
const start = cli.start;

const field = (output: string, label: string) =>
  new RegExp(`^\\s*${label}:\\s+(\\S+)\\s*$`, 'm').exec(output)?.[1];

describe('first start', () => {
  let child: CliProcess;
  let url: string;
  beforeAll(async () => {
    child = start(['--data-dir', dataDir, '--port', '0']);
    url = await child.listening();
  });

  it('prints exactly one listening line, with the real port', () => {
    const lines = child.stdoutLines.filter((l) => l.startsWith('Hearth listening on'));
    expect(lines).toHaveLength(1);
    const port = Number(LISTENING.exec(lines[0]!)![2]);
    expect(port).toBeGreaterThan(0);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(child.stderr).not.toMatch(/WARNING/);
  });

  it('prints the URL and the owner credentials', () => {
    expect(field(child.stdout, 'URL')).toBe(url);
    expect(field(child.stdout, 'Owner')).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(field(child.stdout, 'Password')?.length).toBeGreaterThanOrEqual(8);
    expect(field(child.stdout, 'API key')).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('writes DATA_DIR/zuliprc with the same credentials, readable only by the owner', () => {
    const file = path.join(dataDir, 'zuliprc');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const rc = parseZuliprc(readFileSync(file, 'utf8'));
    expect(rc).toEqual({
      email: field(child.stdout, 'Owner'),
      key: field(child.stdout, 'API key'),
      site: url,
    });
    expect(rc.site).not.toMatch(/\/$/);
  });

  it('the printed key works against the API', async () => {
    const api = new ApiClient(url, {
      email: field(child.stdout, 'Owner')!,
      apiKey: field(child.stdout, 'API key')!,
    });
    const me = await api.get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ role: 100, is_owner: true });
    const settings = await new ApiClient(url, null).get('/server_settings');
    expect(settings.body.zulip_version).toEqual(expect.any(String));
  });

  it('the printed password works with POST /fetch_api_key', async () => {
    const res = await new ApiClient(url, null).post('/fetch_api_key', {
      username: field(child.stdout, 'Owner'),
      password: field(child.stdout, 'Password'),
    });
    expect(res.status).toBe(200);
    expect(res.body.api_key).toBe(field(child.stdout, 'API key'));
    const wrong = await new ApiClient(url, null).post('/fetch_api_key', {
      username: field(child.stdout, 'Owner'),
      password: 'not the password',
    });
    expect(wrong.status).toBe(401);
  });

  it('does not enable the demo login endpoints', async () => {
    const res = await new ApiClient(url, null).get('/dev_list_users', {}, { skipSchema: true });
    expect(res.body.result).toBe('error');
  });

  it('exits with 0 on SIGTERM', async () => {
    child.signal('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe('second start on the same data directory', () => {
  let first: CliProcess;
  let child: CliProcess;
  let url: string;
  beforeAll(async () => {
    first = cli.started[0]!;
    await first.exited;
    child = start(['--data-dir', dataDir, '--port', '0']);
    url = await child.listening();
  });

  it('reuses the organization and says where the zuliprc is', () => {
    expect(child.stdout).not.toMatch(/Created a new organization/);
    expect(field(child.stdout, 'Password')).toBeUndefined();
    expect(child.stdout).toContain(path.join(dataDir, 'zuliprc'));
    expect(child.stdoutLines.filter((l) => LISTENING.test(l))).toHaveLength(1);
  });

  it('keeps the same API key working', async () => {
    const rc = parseZuliprc(readFileSync(path.join(dataDir, 'zuliprc'), 'utf8'));
    expect(rc.key).toBe(field(first.stdout, 'API key'));
    const me = await new ApiClient(url, { email: rc.email!, apiKey: rc.key! }).get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body.is_owner).toBe(true);
  });

  it('still has a single organization with a single owner', async () => {
    await child.stop();
    expect((await child.exited).code).toBe(0);
    const db = new Database(path.join(dataDir, 'hearth.sqlite'), { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM realm').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM users WHERE role = 100').get()).toEqual({ n: 1 });
    db.close();
  });
});
