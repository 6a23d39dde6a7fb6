/**
 * The chat page at `/` and its built files at /chat/<name>: only what the
 * build wrote, with the chat's CSP and revalidation; every other root path
 * keeps the API's JSON 404.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer, RENDERER_DIST } from '../../renderer/build.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
}, 60_000);
afterAll(() => t.close());

const get = (pathname: string, init?: RequestInit) =>
  fetch(new URL(pathname, t.url), { redirect: 'manual', ...init });

const chatDir = path.join(RENDERER_DIST, 'chat');

describe('GET /', () => {
  it('answers the chat page, without credentials', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(readFileSync(path.join(chatDir, 'chat.html'), 'utf8'));
  });

  it('sends the chat CSP, nosniff and revalidation', async () => {
    const res = await get('/');
    const csp = res.headers.get('content-security-policy')!;
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values.join(' ')] as const;
      }),
    );
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('img-src')).toBe("'self' data: blob:");
    expect(directives.get('connect-src')).toBe("'self'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('etag')).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
  });

  it('answers 304 to a revalidation with the current ETag, 200 to a stale one', async () => {
    const etag = (await get('/')).headers.get('etag')!;
    const same = await get('/', { headers: { 'if-none-match': etag } });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe('');
    const stale = await get('/', { headers: { 'if-none-match': 'W/"0-0"' } });
    expect(stale.status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await get('/', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('ignores a query string', async () => {
    const res = await get('/?from=desktop');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('GET /chat/<name>', () => {
  it('serves every file the build wrote, with its type', async () => {
    const types: Record<string, RegExp> = {
      '.js': /^text\/javascript/,
      '.css': /^text\/css/,
      '.html': /^text\/html/,
      '.svg': /^image\/svg\+xml/,
      '.map': /^application\/json/,
      '.woff2': /^font\/woff2/,
    };
    const names = readdirSync(chatDir);
    expect(names).toEqual(expect.arrayContaining(['chat.js', 'chat.css', 'icon.svg']));
    for (const name of names) {
      const res = await get(`/chat/${name}`);
      expect(res.status, name).toBe(200);
      const type = types[path.extname(name)];
      if (type) expect(res.headers.get('content-type'), name).toMatch(type);
      // Buffer.equals, not toEqual: a deep compare of a megabyte bundle byte by
      // byte takes seconds on a loaded machine.
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.equals(readFileSync(path.join(chatDir, name))), name).toBe(true);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('answers the JSON 404 for anything else, path tricks included', async () => {
    for (const pathname of [
      '/chat/nothing.js',
      '/chat/.build-inputs.json',
      '/chat/..%2F.build-inputs.json',
      '/chat/..%2Fapp.js',
      '/chat/%2E%2E%2Fapp.js',
      '/chat/..%5Capp.js',
      '/chat/app.js',
      '/chat/index.html',
      '/chat/chat.js/x',
      '/chat/',
      '/chat',
    ]) {
      const res = await get(pathname);
      expect(res.status, pathname).toBe(404);
      expect(res.headers.get('content-type'), pathname).toMatch(/^application\/json/);
      expect(await res.json(), pathname).toEqual({
        result: 'error',
        msg: 'Endpoint not found',
        code: 'NOT_FOUND',
      });
    }
  });
});

describe('the rest of the site is unaffected', () => {
  it('unknown root paths keep their JSON 404 (Zulip clients probe them)', async () => {
    for (const pathname of ['/index.html', '/chat.html', '/login/', '/static/nothing.png', '/x']) {
      const res = await get(pathname);
      expect(res.status, pathname).toBe(404);
      expect(await res.json(), pathname).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
    }
  });

  it('the API and the closed admin door answer as before', async () => {
    const settings = await get('/api/v1/server_settings');
    expect(settings.status).toBe(200);
    expect(await settings.json()).toMatchObject({ result: 'success' });
    // Without an admin token there is no admin UI and no tRPC door.
    expect((await get('/admin/')).status).toBe(404);
    expect((await get('/trpc/desktop.status')).status).toBe(404);
  });
});
