import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../core/errors.js';
import { CONTENT_TYPES, defaultAdminUiDir } from './admin-ui.js';

/** Where the chat's built files are served from (renderer/build.ts writes them to dist/chat/). */
export const CHAT_FILES_PREFIX = '/chat';
const CHAT_PAGE = 'chat.html';

/**
 * The chat is a client of this server's API and nothing else. Rendered
 * messages carry inline `style` attributes (KaTeX sizes each glyph box), so
 * styles may be inline; scripts may not. Images come from this server
 * (uploads, avatars, emoji) or are the page's own data:/blob: previews of
 * files being uploaded; nothing else is fetched, and no other site may frame
 * the page or receive a form from it.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** A flat file name the build may have written: no separators, no leading dot. */
const FILE_NAME = /^[\w-][\w.-]*$/;

/** renderer/dist/chat, from the sources and from the build alike. */
export function defaultChatUiDir(): string {
  return path.join(defaultAdminUiDir(), 'chat');
}

/** The API's own 404, as for any unknown path. */
const notFoundJson = (reply: FastifyReply) => reply.code(404).send(notFound().toJSON());

/**
 * The chat view: its page at `/` and its built files at /chat/<name>. Files
 * are read per request (a rebuild shows without a restart) and only names
 * the build wrote into the folder are served, which rules out path tricks.
 * Every answer must be revalidated (`no-cache`, with an ETag), so a rebuilt
 * page never runs against a stale script. Other paths at the root keep the
 * API's JSON 404 (Zulip clients probe them).
 */
export function registerChatUi(app: FastifyInstance, dir = defaultChatUiDir()): void {
  const send = (request: FastifyRequest, reply: FastifyReply, name: string) => {
    const listed = existsSync(dir) ? readdirSync(dir) : [];
    if (!FILE_NAME.test(name) || !listed.includes(name)) {
      if (name !== CHAT_PAGE) return notFoundJson(reply);
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('The chat has not been built: run `npm run build:renderer`.');
    }
    const file = path.join(dir, name);
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) return notFoundJson(reply);
    const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    reply.headers({
      'Content-Type': CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': CSP,
    });
    const known = request.headers['if-none-match'];
    if (known?.split(',').some((tag) => tag.trim() === etag)) return reply.code(304).send();
    return reply.send(readFileSync(file));
  };

  app.get('/', (request, reply) => send(request, reply, CHAT_PAGE));
  app.get<{ Params: { name: string } }>(`${CHAT_FILES_PREFIX}/:name`, (request, reply) =>
    send(request, reply, request.params.name),
  );
}
