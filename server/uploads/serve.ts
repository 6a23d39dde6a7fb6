import type { AppContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { storedFileExists, storedFilePath } from '../core/file-store.js';
import {
  type AttachmentRow,
  attachmentByPathId,
  type StoredThumbnail,
} from '../db/queries/attachments.js';
import type { UserRow } from '../db/queries/users.js';
import { FileAnswer } from '../shared/files.js';
import { INLINE_MIME_TYPES } from '../shared/uploads.js';
import { mayAccessAttachment } from './access.js';
import { baseType } from './names.js';

/**
 * Serving uploads. Only types browsers merely display (INLINE_MIME_TYPES)
 * are served with their type, inline; everything else (HTML, SVG, scripts,
 * ...) is a download typed application/octet-stream, as Zulip's nginx
 * serves every type it does not list, so that even a page that came to
 * load one in a <script> or <iframe> could not run it. The app adds nosniff
 * and a sandboxing CSP to every file answer.
 */

/** Zulip's bodies for the browser-facing paths (serve_file's 404 and 403). */
export const notFoundPage = () =>
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

export const fileNotFound = () => new ApiError('File not found.', { status: 404 });
export const notAuthorized = () =>
  new ApiError('You are not authorized to view this file.', { status: 403 });

type Lookup =
  | { ok: true; attachment: AttachmentRow }
  | { ok: false; reason: 'missing' | 'forbidden' };

export function lookUp(ctx: AppContext, user: UserRow, realmIdStr: string, rest: string): Lookup {
  const attachment = attachmentByPathId(ctx.db, `${realmIdStr}/${rest}`);
  if (!attachment || !storedFileExists(ctx, attachment.storage_key)) {
    return { ok: false, reason: 'missing' };
  }
  if (!mayAccessAttachment(ctx, user, attachment)) return { ok: false, reason: 'forbidden' };
  return { ok: true, attachment };
}

export function fileNameOf(attachment: AttachmentRow): string {
  return attachment.path_id.slice(attachment.path_id.lastIndexOf('/') + 1);
}

/** The type a stored file is served with: its own if it is one browsers merely display. */
function servedType(contentType: string): string {
  return INLINE_MIME_TYPES.has(baseType(contentType)) ? contentType : 'application/octet-stream';
}

export function answerWithFile(ctx: AppContext, attachment: AttachmentRow, download: boolean) {
  const displayable = INLINE_MIME_TYPES.has(baseType(attachment.content_type));
  return new FileAnswer({
    body: { path: storedFilePath(ctx, attachment.storage_key)! },
    contentType: servedType(attachment.content_type),
    disposition: {
      type: displayable && !download ? 'inline' : 'attachment',
      fileName: fileNameOf(attachment),
    },
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
