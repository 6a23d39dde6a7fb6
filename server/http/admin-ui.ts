import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const ADMIN_UI_PREFIX = '/admin';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The page talks only to this server; nothing may frame it. */
const CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
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
 * The built admin UI (a handful of flat files) under /admin/. Files are read
 * per request so a rebuild shows without a restart; only names listed in the
 * directory are served, which rules out path tricks.
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
      .send(readFileSync(path.join(dir, name)));
  };

  app.get(`${ADMIN_UI_PREFIX}/`, (request, reply) => {
    // The router ignores trailing slashes; relative asset URLs need one.
    if (!request.url.split('?')[0]!.endsWith('/')) {
      return reply.redirect(`${ADMIN_UI_PREFIX}/`);
    }
    return send(reply, 'index.html');
  });
  app.get<{ Params: { file: string } }>(`${ADMIN_UI_PREFIX}/:file`, (request, reply) =>
    send(reply, request.params.file),
  );
}
