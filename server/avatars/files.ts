import type { AppContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { storedFileExists, storedFilePath } from '../core/file-store.js';
import { userById } from '../db/queries/users.js';
import { FileAnswer } from '../shared/files.js';
import { defaultAvatarPng } from './default-avatar.js';
import { AVATAR_SIZE, MEDIUM_AVATAR_SIZE } from './images.js';
import { avatarFileKey } from './storage.js';

const fileNotFound = () => new ApiError('File not found', { code: 'NOT_FOUND', status: 404 });

/**
 * A new picture changes the URL (`?version=`), so a day's caching is safe;
 * the initials of a default picture follow a renamed user within that day.
 */
const AVATAR_CACHE = 'public, max-age=86400';

/**
 * GET /user_avatars/{user_id}.png and /user_avatars/{user_id}-medium.png:
 * the uploaded picture, or for anyone without one the generated default.
 * The `version` query only busts caches; the current picture is served.
 */
export async function userAvatarImage(ctx: AppContext, fileName: string): Promise<FileAnswer> {
  const match = /^(\d{1,15})(-medium)?\.png$/.exec(fileName);
  if (!match) throw fileNotFound();
  const user = userById(ctx.db, Number(match[1]));
  if (!user) throw fileNotFound();
  const medium = match[2] !== undefined;
  if (user.avatar_source === 'U') {
    const key = avatarFileKey(user.id, user.avatar_version, medium);
    const path = storedFilePath(ctx, key);
    if (path !== null && storedFileExists(ctx, key)) {
      return new FileAnswer({
        body: { path },
        contentType: 'image/png',
        disposition: { type: 'inline' },
        cacheControl: AVATAR_CACHE,
      });
    }
  }
  const body = await defaultAvatarPng(user, medium ? MEDIUM_AVATAR_SIZE : AVATAR_SIZE);
  return new FileAnswer({
    body,
    contentType: 'image/png',
    disposition: { type: 'inline' },
    cacheControl: AVATAR_CACHE,
  });
}
