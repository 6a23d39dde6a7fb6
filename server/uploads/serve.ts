import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { storedFileExists, storedFilePath } from '../core/file-store.js';
import {
  type AttachmentRow,
  attachmentByPathId,
  type StoredThumbnail,
} from '../db/queries/attachments.js';
import type { UserRow } from '../db/queries/users.js';
import { FileAnswer } from '../shared/files.js';
import { TEMPORARY_UPLOAD_URL_SECONDS } from '../shared/limits.js';
import { encodePathId, INLINE_MIME_TYPES } from '../shared/thumbnails.js';
import { mayAccessAttachment } from './access.js';
import { baseType } from './names.js';

/**
 * Serving uploads. Files are served with the type they were stored as, but
 * only types browsers merely display (INLINE_MIME_TYPES) are inline;
 * everything else (HTML, SVG, scripts, ...) is a download. The app adds
 * nosniff and a sandboxing CSP to every file answer.
 */

/** Zulip's bodies for the browser-facing paths (serve_file's 404 and 403). */
const notFoundPage = () =>
  new FileAnswer({
    body: Buffer.from('<p>File not found.</p>'),
    contentType: 'text/html; charset=utf-8',
    status: 404,
    cacheControl: 'no-store',
  });
const forbiddenPage = () =>
  new FileAnswer({
    body: Buffer.from('<p>You are not authorized to view this file.</p>'),
    contentType: 'text/html; charset=utf-8',
    status: 403,
    cacheControl: 'no-store',
  });

const fileNotFound = () => new ApiError('File not found.', { status: 404 });
const notAuthorized = () =>
  new ApiError('You are not authorized to view this file.', { status: 403 });

type Lookup =
  | { ok: true; attachment: AttachmentRow }
  | { ok: false; reason: 'missing' | 'forbidden' };

function lookUp(ctx: AppContext, user: UserRow, realmIdStr: string, rest: string): Lookup {
  const attachment = attachmentByPathId(ctx.db, `${realmIdStr}/${rest}`);
  if (!attachment || !storedFileExists(ctx, attachment.storage_key)) {
    return { ok: false, reason: 'missing' };
  }
  if (!mayAccessAttachment(ctx, user, attachment)) return { ok: false, reason: 'forbidden' };
  return { ok: true, attachment };
}

function fileNameOf(attachment: AttachmentRow): string {
  return attachment.path_id.slice(attachment.path_id.lastIndexOf('/') + 1);
}

function answerWithFile(ctx: AppContext, attachment: AttachmentRow, download: boolean) {
  const inline = !download && INLINE_MIME_TYPES.has(baseType(attachment.content_type));
  return new FileAnswer({
    body: { path: storedFilePath(ctx, attachment.storage_key)! },
    contentType: attachment.content_type,
    disposition: { type: inline ? 'inline' : 'attachment', fileName: fileNameOf(attachment) },
    // The bytes under a path id never change.
    cacheControl: 'private, max-age=31536000, immutable',
  });
}

/** GET /user_uploads/{realm_id}/{...} and /user_uploads/download/{realm_id}/{...}. */
export function serveUpload(
  ctx: AppContext,
  user: UserRow,
  realmIdStr: string,
  rest: string,
  opts: { download?: boolean } = {},
): FileAnswer {
  const found = lookUp(ctx, user, realmIdStr, rest);
  if (!found.ok) return found.reason === 'missing' ? notFoundPage() : forbiddenPage();
  return answerWithFile(ctx, found.attachment, opts.download ?? false);
}

const FORMAT_NAME = /^\d+x\d+(?:-anim)?\.\w+$/;

/**
 * GET /user_uploads/thumbnail/{path_id}/{format}: the thumbnail if it was
 * made; for a format the server does not make (a client with an old list),
 * the nearest it has, as Zulip does.
 */
export function serveThumbnail(ctx: AppContext, user: UserRow, rest: string): FileAnswer {
  const slash = rest.lastIndexOf('/');
  const formatName = rest.slice(slash + 1);
  const pathId = rest.slice(0, Math.max(slash, 0));
  const firstSlash = pathId.indexOf('/');
  if (slash <= 0 || firstSlash <= 0 || !FORMAT_NAME.test(formatName)) return notFoundPage();
  const found = lookUp(ctx, user, pathId.slice(0, firstSlash), pathId.slice(firstSlash + 1));
  if (!found.ok) return found.reason === 'missing' ? notFoundPage() : forbiddenPage();
  const thumbnails = JSON.parse(found.attachment.thumbnails) as StoredThumbnail[];
  const wantsAnimated = formatName.includes('-anim');
  const thumbnail =
    thumbnails.find((t) => t.name === formatName) ??
    thumbnails.find((t) => t.name.includes('-anim') === wantsAnimated) ??
    thumbnails[0];
  if (!thumbnail || !storedFileExists(ctx, thumbnail.key)) return notFoundPage();
  return new FileAnswer({
    body: { path: storedFilePath(ctx, thumbnail.key)! },
    contentType: thumbnail.content_type,
    disposition: { type: 'inline' },
    cacheControl: 'private, max-age=31536000, immutable',
  });
}

/** Temporary URLs are signed with a key of this server run: they live a minute anyway. */
const signingKeys = new WeakMap<AppContext, Buffer>();

function sign(ctx: AppContext, payload: string): Buffer {
  let key = signingKeys.get(ctx);
  if (!key) {
    key = randomBytes(32);
    signingKeys.set(ctx, key);
  }
  return createHmac('sha256', key).update(payload).digest().subarray(0, 20);
}

/**
 * GET /api/v1/user_uploads/{realm_id_str}/{filename}: a URL that serves the
 * file without credentials for TEMPORARY_UPLOAD_URL_SECONDS (mobile apps hand
 * it to the system's viewer or downloader).
 */
export function temporaryUploadUrl(
  ctx: AppContext,
  user: UserRow,
  realmIdStr: string,
  rest: string,
): { url: string } {
  const found = lookUp(ctx, user, realmIdStr, rest);
  if (!found.ok) throw found.reason === 'missing' ? fileNotFound() : notAuthorized();
  const expires = Math.floor(ctx.now() / 1000) + TEMPORARY_UPLOAD_URL_SECONDS;
  const payload = `${found.attachment.path_id}:${expires}`;
  const token = `${Buffer.from(payload).toString('base64url')}.${sign(ctx, payload).toString('base64url')}`;
  const name = encodePathId(fileNameOf(found.attachment));
  return { url: `/user_uploads/temporary/${token}/${name}` };
}

/** GET /user_uploads/temporary/{token}/{filename}, with no credentials. */
export function serveTemporaryUpload(ctx: AppContext, token: string, fileName: string): FileAnswer {
  const [encoded, signature, extra] = token.split('.');
  if (encoded === undefined || signature === undefined || extra !== undefined) {
    throw badRequest('Invalid token');
  }
  const payload = Buffer.from(encoded, 'base64url').toString();
  const given = Buffer.from(signature, 'base64url');
  const expected = sign(ctx, payload);
  const match = /^(.+):(\d+)$/s.exec(payload);
  if (
    !match ||
    given.length !== expected.length ||
    !timingSafeEqual(given, expected) ||
    Number(match[2]) < Math.floor(ctx.now() / 1000)
  ) {
    throw badRequest('Invalid token');
  }
  const pathId = match[1]!;
  if (pathId.slice(pathId.lastIndexOf('/') + 1) !== fileName) throw badRequest('Invalid filename');
  const attachment = attachmentByPathId(ctx.db, pathId);
  if (!attachment || !storedFileExists(ctx, attachment.storage_key)) return notFoundPage();
  return answerWithFile(ctx, attachment, false);
}
