import type { AppContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { storedFileExists, storedFilePath } from '../core/file-store.js';
import { realmEmojiByFileName, realmEmojiById } from '../db/queries/realm-emoji.js';
import { emojiFileKey, emojiStillUrl, stillFileKey } from '../shared/emoji-urls.js';
import { FileAnswer } from '../shared/files.js';
import { loadRealm } from '../shared/realm.js';
import { emojiContentType } from './images.js';

export const fileNotFound = () =>
  new ApiError('File not found', { code: 'NOT_FOUND', status: 404 });

/**
 * An emoji's image never changes under its URL (a new upload gets a new id),
 * so anyone may cache it for good, as for Zulip's nginx-served files.
 */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function answer(ctx: AppContext, key: string, contentType: string): FileAnswer {
  const path = storedFilePath(ctx, key);
  if (path === null || !storedFileExists(ctx, key)) throw fileNotFound();
  return new FileAnswer({
    body: { path },
    contentType,
    disposition: { type: 'inline' },
    cacheControl: IMMUTABLE,
  });
}

/** GET /user_avatars/{realm_id}/emoji/images/{file_name}; deactivated emoji stay served. */
export function customEmojiImage(ctx: AppContext, realmId: string, fileName: string): FileAnswer {
  if (realmId !== String(loadRealm(ctx).row.id)) throw fileNotFound();
  const row = realmEmojiByFileName(ctx.db, fileName);
  if (!row) throw fileNotFound();
  return answer(ctx, emojiFileKey(row.file_name), emojiContentType(row.file_name));
}

/** GET /user_avatars/{realm_id}/emoji/images/still/{id}.png: animated emoji only. */
export function customEmojiStill(ctx: AppContext, realmId: string, fileName: string): FileAnswer {
  const realm = loadRealm(ctx).row.id;
  const id = /^(\d{1,15})\.png$/.exec(fileName)?.[1];
  if (realmId !== String(realm) || id === undefined) throw fileNotFound();
  const row = realmEmojiById(ctx.db, Number(id));
  if (!row?.is_animated || !emojiStillUrl(realm, row.file_name).endsWith(`/${fileName}`)) {
    throw fileNotFound();
  }
  return answer(ctx, stillFileKey(row.file_name), 'image/png');
}
