import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { removeStoredFile, writeStoredFiles } from '../core/file-store.js';
import { setAvatarSource } from '../db/queries/avatars.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { contentTypeOf } from '../shared/content-types.js';
import type { UploadedFile } from '../shared/files.js';
import { MAX_AVATAR_FILE_SIZE_MIB } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { realmUserUpdate } from '../shared/realm-user-update.js';
import { isAdmin } from '../shared/roles.js';
import { userIdsWhoCanAccess } from '../user-access/index.js';
import { avatarChange, avatarUrl, emitBotUpdate } from '../users/index.js';
import { resizeAvatar } from './images.js';
import { avatarFileKey } from './storage.js';

function checkAvatarChangesAllowed(ctx: AppContext, user: UserRow): void {
  if (loadRealm(ctx).settings.avatar_changes_disabled && !isAdmin(user)) {
    throw badRequest('Avatar changes are disabled in this organization.');
  }
}

/** Zulip's notify_avatar_url_change: everyone gets the new URLs; a bot's owner and admins also a realm_bot update. */
function emitAvatarChange(ctx: AppContext, tx: Tx, userId: number): void {
  const user = userById(ctx.db, userId)!;
  if (user.is_bot) emitBotUpdate(ctx, tx, user, { avatar_url: avatarUrl(user) });
  tx.emit({
    type: 'realm_user',
    users: userIdsWhoCanAccess(ctx, user.id),
    payload: realmUserUpdate(user.id, avatarChange(user)),
  });
}

/** Removes the files of an uploaded avatar that no URL points to any more. */
function dropUploadedFiles(ctx: AppContext, before: UserRow): void {
  if (before.avatar_source !== 'U') return;
  removeStoredFile(ctx, avatarFileKey(before.id, before.avatar_version, false));
  removeStoredFile(ctx, avatarFileKey(before.id, before.avatar_version, true));
}

/** POST /users/me/avatar (Zulip's set_avatar_backend). */
export async function setOwnAvatar(
  ctx: AppContext,
  user: UserRow,
  files: readonly UploadedFile[],
): Promise<{ avatar_url: string }> {
  if (files.length !== 1) throw badRequest('You must upload exactly one avatar.');
  checkAvatarChangesAllowed(ctx, user);
  const [file] = files as [UploadedFile];
  if (file.truncated || file.size > MAX_AVATAR_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(
      `Uploaded file is larger than the allowed limit of ${MAX_AVATAR_FILE_SIZE_MIB} MiB`,
    );
  }
  const images = await resizeAvatar(file.path, contentTypeOf(file.contentType, file.fileName));
  const before = userById(ctx.db, user.id)!;
  ctx.transaction((tx) => {
    setAvatarSource(ctx.db, user.id, 'U');
    const version = userById(ctx.db, user.id)!.avatar_version;
    writeStoredFiles(ctx, [
      { key: avatarFileKey(user.id, version, false), data: images.small },
      { key: avatarFileKey(user.id, version, true), data: images.medium },
    ]);
    emitAvatarChange(ctx, tx, user.id);
  });
  dropUploadedFiles(ctx, before);
  return { avatar_url: avatarUrl(userById(ctx.db, user.id)!) };
}

/** DELETE /users/me/avatar: back to Gravatar, Zulip's default source (delete_avatar_backend). */
export function removeOwnAvatar(ctx: AppContext, user: UserRow): { avatar_url: string } {
  checkAvatarChangesAllowed(ctx, user);
  const before = userById(ctx.db, user.id)!;
  ctx.transaction((tx) => {
    setAvatarSource(ctx.db, user.id, 'G');
    emitAvatarChange(ctx, tx, user.id);
  });
  dropUploadedFiles(ctx, before);
  return { avatar_url: avatarUrl(userById(ctx.db, user.id)!) };
}
