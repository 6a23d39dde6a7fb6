/**
 * The server's log file: every run of createServer (the CLI's and the
 * desktop's) writes `<data dir>/logs/hearth.log` with a request log that
 * never carries credentials; it rotates by size and by day.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggablePath, openFileLog, recentLogLines } from '../../server/core/log.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let logFile: string;

beforeAll(async () => {
  t = await startTestServer();
  logFile = path.join(t.dataDir, 'logs', 'hearth.log');
});
afterAll(() => t?.close());

async function logText(): Promise<string> {
  await t.server.ctx.log.flush?.();
  return readFileSync(logFile, 'utf8');
}

describe('the request log', () => {
  it('records method, path, status and duration as JSON lines with a time', async () => {
    await t.as('member').get('/users/me');
    await t.anonymous().get('/no_such_endpoint', {}, { skipSchema: true });
    const lines = (await logText())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const me = lines.find((l) => l.req?.path === '/api/v1/users/me');
    expect(me).toMatchObject({
      level: 30,
      req: { method: 'GET', path: '/api/v1/users/me', status: 200, ms: expect.any(Number) },
      msg: expect.stringMatching(/^GET \/api\/v1\/users\/me 200 [\d.]+ms$/),
    });
    expect(new Date(me.time).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(lines.find((l) => l.req?.path === '/api/v1/no_such_endpoint')?.req.status).toBe(404);
    expect(lines[0].msg).toMatch(/^Hearth listening on 127\.0\.0\.1 port \d+/);
  });

  it('never writes API keys, passwords or the Authorization header', async () => {
    const { email, apiKey, password } = t.accounts.member;
    await fetch(`${t.url}/api/v1/users/me?api_key=${apiKey}&client=test&password=${password}`, {
      headers: { authorization: basicAuth(email, apiKey) },
    });
    await fetch(`${t.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password: password! }),
    });
    const text = await logText();
    expect(text).toContain('/api/v1/users/me?api_key=[redacted]&client=test&password=[redacted]');
    expect(text).toContain('POST /api/v1/fetch_api_key 200');
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(password!);
    expect(text).not.toContain(Buffer.from(`${email}:${apiKey}`).toString('base64'));
  });

  it('redacts every credential-like query parameter', () => {
    expect(loggablePath('/a?token=x&otp=1&secret=s&queue_id=q&jwt=j')).toBe(
      '/a?token=[redacted]&otp=[redacted]&secret=[redacted]&queue_id=q&jwt=[redacted]',
    );
    expect(loggablePath('/api/v1/events')).toBe('/api/v1/events');
  });
});

describe('the log file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rotates by size into hearth.log.1 ... and keeps only a few', async () => {
    const log = openFileLog(dir, { maxBytes: 400, keep: 2 });
    for (let i = 0; i < 20; i++) log.logger.info(`line ${i} ${'x'.repeat(100)}`);
    await log.close();
    const files = readdirSync(path.join(dir, 'logs')).sort();
    expect(files).toEqual(['hearth.log', 'hearth.log.1', 'hearth.log.2']);
    expect(readFileSync(path.join(dir, 'logs', 'hearth.log'), 'utf8')).toContain('line 19 ');
    expect(readFileSync(path.join(dir, 'logs', 'hearth.log.1'), 'utf8')).not.toContain('line 19 ');
  });

  it('starts a new file on a new day', async () => {
    const sub = path.join(dir, 'daily');
    let now = new Date(2026, 0, 1, 23, 59).getTime();
    const log = openFileLog(sub, { now: () => now });
    log.logger.info('before midnight');
    now += 2 * 60_000;
    log.logger.info('after midnight');
    await log.close();
    const logs = path.join(sub, 'logs');
    expect(readFileSync(path.join(logs, 'hearth.log.1'), 'utf8')).toContain('before midnight');
    expect(readFileSync(path.join(logs, 'hearth.log'), 'utf8')).not.toContain('before midnight');
    expect(readFileSync(path.join(logs, 'hearth.log'), 'utf8')).toContain('after midnight');
  });

  it('reads back the newest lines, formatted, reaching into the rotated file', async () => {
    const sub = path.join(dir, 'recent');
    const log = openFileLog(sub, { maxBytes: 300 });
    for (let i = 0; i < 6; i++) log.logger.info(`entry ${i} ${'y'.repeat(60)}`);
    log.logger.error('it broke', new Error('disk full'));
    await log.close();
    const lines = recentLogLines(log.file, 3);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z ERROR it broke: disk full$/);
    expect(lines[1]).toMatch(/ INFO entry 5 y+$/);
    expect(existsSync(`${log.file}.1`)).toBe(true);
    expect(recentLogLines(path.join(dir, 'nothing', 'hearth.log'), 5)).toEqual([]);
  });
});
