import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { newFileKey, removeStoredFile, storedFilePath, storeFileFrom } from '../core/file-store.js';
import { attachmentById, insertAttachment, uploadBytesOf } from '../db/queries/attachments.js';
import { getRealm } from '../db/queries/realm.js';
import type { UserRow } from '../db/queries/users.js';
import { contentTypeOf } from '../shared/content-types.js';
import type { UploadedFile } from '../shared/files.js';
import { MAX_FILE_UPLOAD_SIZE_MIB, MAX_UPLOAD_SPACE_PER_USER_MIB } from '../shared/limits.js';
import { encodePathId } from '../shared/uploads.js';
import { emitAttachmentEvent, formatAttachment } from './attachments.js';
import { displayName, newPathId, withCharset } from './names.js';
import { makeThumbnails, removeThumbnails } from './thumbnails.js';

const MIB = 1024 * 1024;

function checkQuota(ctx: AppContext, user: UserRow, size: number): void {
  if (uploadBytesOf(ctx.db, user.id) + size > MAX_UPLOAD_SPACE_PER_USER_MIB * MIB) {
    throw new ApiError(
      `Upload would exceed your upload quota of ${MAX_UPLOAD_SPACE_PER_USER_MIB} MiB. Delete some of your uploaded files to make room.`,
      { code: 'REALM_UPLOAD_QUOTA' },
    );
  }
}

/**
 * POST /user_uploads: exactly one file part (under any field name: the
 * Python bindings name it after the file's path). The bytes and any
 * thumbnails are written first; the row, which makes them reachable, is
 * written last, so a failure leaves nothing a URL can name.
 */
export async function uploadFile(ctx: AppContext, user: UserRow, files: readonly UploadedFile[]) {
  if (files.length === 0) throw badRequest('You must specify a file to upload');
  if (files.length > 1) throw badRequest('You may only upload one file at a time');
  const file = files[0]!;
  if (file.truncated || file.size > MAX_FILE_UPLOAD_SIZE_MIB * MIB) {
    throw badRequest(
      `Uploaded file is larger than the allowed limit of ${MAX_FILE_UPLOAD_SIZE_MIB} MiB`,
    );
  }
  checkQuota(ctx, user, file.size);

  const name = displayName(file.fileName);
  const contentType = contentTypeOf(file.contentType, name);
  const pathId = newPathId(getRealm(ctx.db)?.id ?? 1, name);
  const storageKey = newFileKey('uploads');
  // The part is already on disk: it moves into the store, never through memory.
  storeFileFrom(ctx, storageKey, file.path);
  const stored = storedFilePath(ctx, storageKey)!;
  let image: Awaited<ReturnType<typeof makeThumbnails>> = null;
  let storedType: string;
  try {
    image = await makeThumbnails(ctx, stored, contentType);
    storedType = await withCharset(contentType, stored);
  } catch (err) {
    removeStoredFile(ctx, storageKey);
    if (image) removeThumbnails(ctx, image.thumbnails);
    throw err;
  }

  try {
    ctx.transaction((tx) => {
      // Again inside the transaction: concurrent uploads must not overshoot together.
      checkQuota(ctx, user, file.size);
      const id = insertAttachment(ctx.db, {
        owner_id: user.id,
        path_id: pathId,
        file_name: name,
        size: file.size,
        create_time_ms: ctx.now(),
        storage_key: storageKey,
        content_type: storedType,
        image_width: image?.width ?? null,
        image_height: image?.height ?? null,
        image_frames: image?.frames ?? null,
        thumbnails: JSON.stringify(image?.thumbnails ?? []),
      });
      emitAttachmentEvent(ctx, tx, user.id, {
        op: 'add',
        attachment: formatAttachment(ctx, attachmentById(ctx.db, id)!),
      });
    });
  } catch (err) {
    removeStoredFile(ctx, storageKey);
    if (image) removeThumbnails(ctx, image.thumbnails);
    throw err;
  }

  const url = `/user_uploads/${encodePathId(pathId)}`;
  return { uri: url, url, filename: pathId.slice(pathId.lastIndexOf('/') + 1) };
}
