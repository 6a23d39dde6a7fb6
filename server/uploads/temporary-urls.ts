import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { storedFileExists } from '../core/file-store.js';
import { attachmentByPathId } from '../db/queries/attachments.js';
import type { UserRow } from '../db/queries/users.js';
import type { FileAnswer } from '../shared/files.js';
import { TEMPORARY_UPLOAD_URL_SECONDS } from '../shared/limits.js';
import { encodePathId } from '../shared/uploads.js';
import {
  answerWithFile,
  fileNameOf,
  fileNotFound,
  lookUp,
  notAuthorized,
  notFoundPage,
} from './serve.js';

/**
 * Temporary URLs: a signed token naming the file and when it stops working,
 * so the URL can be handed to something that holds no credentials.
 */

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
