import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const ADMIN_UI_PREFIX = '/admin';

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/** The page talks only to this server; nothing may frame it. */
const CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/**
 * renderer/dist next to the package root, from the sources (server/http) and
 * from the build (dist/server/http) alike.
 */
export function defaultAdminUiDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'renderer', 'dist');
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('renderer', 'dist');
    dir = parent;
  }
}

/**
 * The page's assets are named relatively (it also runs from file:// in the
 * desktop app); over HTTP a deep link such as /admin/users/7 must still load
 * them from /admin/, which a <base> at the head of the page says.
 */
function withBase(html: string): string {
  return html.replace(/<head>/i, `<head>\n    <base href="${ADMIN_UI_PREFIX}/" />`);
}

/** A page of the UI's client-side router: path segments without a dot (files have one). */
const PAGE_PATH = /^[\w-]+(\/[\w-]+)*\/?$/;

/**
 * The built admin UI (a handful of flat files) under /admin/. Files are read
 * per request so a rebuild shows without a restart; only names listed in the
 * directory are served, which rules out path tricks. Any other page path
 * (/admin/users, /admin/channels/3) gets the page itself, whose router shows
 * it: a pasted or reloaded link works.
 */
export function registerAdminUi(app: FastifyInstance, dir = defaultAdminUiDir()): void {
  const send = (reply: FastifyReply, name: string) => {
    const files = existsSync(dir) ? readdirSync(dir) : [];
    if (!/^[\w-][\w.-]*$/.test(name) || !files.includes(name)) {
      const message =
        name === 'index.html'
          ? 'The admin UI has not been built: run `npm run build:renderer`.'
          : 'Not found';
      return reply.code(404).type('text/plain; charset=utf-8').send(message);
    }
    const type = CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream';
    return reply
      .type(type)
      .headers({
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Content-Security-Policy': CSP,
      })
      .send(
        name === 'index.html'
          ? withBase(readFileSync(path.join(dir, name), 'utf8'))
          : readFileSync(path.join(dir, name)),
      );
  };

  app.get(`${ADMIN_UI_PREFIX}/`, (request, reply) => {
    // The router ignores trailing slashes; relative asset URLs need one.
    if (!request.url.split('?')[0]!.endsWith('/')) {
      return reply.redirect(`${ADMIN_UI_PREFIX}/`);
    }
    return send(reply, 'index.html');
  });
  app.get<{ Params: { '*': string } }>(`${ADMIN_UI_PREFIX}/*`, (request, reply) => {
    const rest = request.params['*'];
    if (!rest.includes('/') && rest.includes('.')) return send(reply, rest);
    if (PAGE_PATH.test(rest)) return send(reply, 'index.html');
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}
