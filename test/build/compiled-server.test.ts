/**
 * The build as it ships: `node dist/server/cli.js` on plain Node (no
 * TypeScript loader), started on a fresh data directory and used through
 * its API, so that an import only tsx understands, or a file looked up in
 * the source tree, fails here rather than on a user's machine.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/build.js';
import { ApiClient } from '../helpers/server.js';
import { BUILD_TIMEOUT_MS, built, freePort, type Started, session } from './process.js';

const CLI = path.join(ROOT, 'dist', 'server', 'cli.js');
const run = session();
const dataDir = run.dataDir();

const startCompiled = (args: string[]) =>
  run.start(process.execPath, [CLI, '--data-dir', dataDir, ...args], { cwd: ROOT });

const zuliprc = () => readFileSync(path.join(dataDir, 'zuliprc'), 'utf8');

beforeAll(async () => {
  await built();
}, BUILD_TIMEOUT_MS);

describe('the compiled server, first start', () => {
  let server: Started;
  let url: string;
  let owner: ApiClient;

  beforeAll(async () => {
    server = startCompiled(['--port', '0']);
    ({ url } = await server.listening());
  }, BUILD_TIMEOUT_MS);

  it('is plain JavaScript run by node', () => {
    expect(existsSync(CLI)).toBe(true);
    expect(server.child.spawnargs).toEqual([
      process.execPath,
      CLI,
      '--data-dir',
      dataDir,
      '--port',
      '0',
    ]);
    expect(server.stderr).not.toMatch(/Error/);
  });

  it('shows the owner the generated password once, with the API key and the zuliprc', () => {
    expect(server.stdout).toMatch(/^Created a new organization\.$/m);
    expect(server.field('Owner')).toBe('owner@hearth.local');
    expect(server.field('Password')).toMatch(/^\S{12,}$/);
    expect(server.field('zuliprc')).toBe(path.join(dataDir, 'zuliprc'));
    expect(zuliprc()).toBe(
      `[api]\nemail=owner@hearth.local\nkey=${server.field('API key')}\nsite=${url}\n`,
    );
  });

  it('logs in with that password (POST /fetch_api_key) and knows its owner', async () => {
    const anonymous = new ApiClient(url, null);
    const login = await anonymous.post('/fetch_api_key', {
      username: 'owner@hearth.local',
      password: server.field('Password'),
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ result: 'success', email: 'owner@hearth.local' });
    expect(login.body.api_key).toBe(server.field('API key'));

    owner = new ApiClient(url, { email: 'owner@hearth.local', apiKey: login.body.api_key });
    const me = await owner.get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'owner@hearth.local', is_owner: true });

    const wrong = await anonymous.post('/fetch_api_key', {
      username: 'owner@hearth.local',
      password: 'not the password',
    });
    expect(wrong.status).toBe(401);
  });

  it('sends and fetches a message rendered with every data file the renderer loads', async () => {
    const me = await owner.get('/users/me');
    // A bare domain (the TLD list), an emoji name (emoji-datasource), TeX
    // (KaTeX) and a highlighted code block (highlight.js).
    const content = 'See example.com :octopus: $$x^2$$\n```python\ndef f(): pass\n```';
    const sent = await owner.post('/messages', {
      type: 'direct',
      to: JSON.stringify([me.body.user_id]),
      content,
    });
    expect(sent.status).toBe(200);

    const fetched = await owner.get('/messages', {
      anchor: sent.body.id,
      num_before: 0,
      num_after: 0,
    });
    expect(fetched.status).toBe(200);
    const [message] = fetched.body.messages;
    expect(message.id).toBe(sent.body.id);
    expect(message.content).toContain('<a href="http://example.com">example.com</a>');
    expect(message.content).toMatch(/<span aria-label="octopus" class="emoji emoji-1f419"/);
    expect(message.content).toContain('<span class="katex">');
    expect(message.content).toMatch(/<div class="codehilite" data-code-language="Python">/);
    expect(message.content).toContain('<span class="k">def</span>');
  });

  it('serves the admin UI it links to', async () => {
    const admin = /^Admin UI: (\S+)$/m.exec(server.stdout)![1]!;
    const page = await fetch(admin);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="app.js"');
  });

  it('stops on SIGTERM with exit code 0', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe('the compiled server, a later start on another port', () => {
  let server: Started;
  let url: string;
  let key: string;

  beforeAll(async () => {
    key = /^key=(\S+)$/m.exec(zuliprc())![1]!;
    const oldPort = Number(/^site=http:\/\/127\.0\.0\.1:(\d+)$/m.exec(zuliprc())![1]);
    let port = await freePort();
    while (port === oldPort) port = await freePort();
    // What the desktop app does when its port is taken: another port, same data.
    server = startCompiled(['--port', String(port)]);
    ({ url } = await server.listening());
  }, BUILD_TIMEOUT_MS);

  it('does not show the password again', () => {
    expect(server.stdout).not.toMatch(/Created a new organization/);
    expect(server.field('Password')).toBeUndefined();
    expect(server.stdout).not.toMatch(/Password/);
  });

  it('points the zuliprc at the new port and says so, keeping the credentials', async () => {
    expect(server.stdout).toContain(`(its site is now ${url})`);
    expect(zuliprc()).toBe(`[api]\nemail=owner@hearth.local\nkey=${key}\nsite=${url}\n`);
    const me = await new ApiClient(url, { email: 'owner@hearth.local', apiKey: key }).get(
      '/users/me',
    );
    expect(me.status).toBe(200);
  });
});
