import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest, insufficientPermission } from '../core/errors.js';
import { writeStoredFiles } from '../core/file-store.js';
import {
  activeRealmEmojiByName,
  allRealmEmoji,
  deactivateRealmEmojiRow,
  insertRealmEmoji,
  type RealmEmojiRow,
  setRealmEmojiFile,
} from '../db/queries/realm-emoji.js';
import { activeUserIds, type UserRow } from '../db/queries/users.js';
import { unicodeEmojiCode } from '../markdown/index.js';
import { contentTypeOf } from '../shared/content-types.js';
import { emojiFileKey, emojiSourceUrl, emojiStillUrl, stillFileKey } from '../shared/emoji-urls.js';
import type { UploadedFile } from '../shared/files.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { MAX_EMOJI_FILE_SIZE_MIB } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { isAdmin, requireRole } from '../shared/roles.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { emojiFormatFor, resizeEmoji } from './images.js';
import { checkValidEmojiName, normalizeEmojiName } from './names.js';

/** Zulip's EmojiInfo: one entry of `realm_emoji`, keyed by the id as a string. */
export interface RealmEmojiInfo {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

export function realmEmojiInfo(realmId: number, row: RealmEmojiRow): RealmEmojiInfo {
  return {
    id: String(row.id),
    name: row.name,
    source_url: emojiSourceUrl(realmId, row.file_name),
    still_url: row.is_animated ? emojiStillUrl(realmId, row.file_name) : null,
    deactivated: row.deactivated === 1,
    author_id: row.author_id,
  };
}

/** Every custom emoji, deactivated ones too: old messages and reactions still show them. */
export function realmEmojiDict(ctx: AppContext): Record<string, RealmEmojiInfo> {
  const realmId = loadRealm(ctx).row.id;
  const dict: Record<string, RealmEmojiInfo> = {};
  for (const row of allRealmEmoji(ctx.db)) dict[String(row.id)] = realmEmojiInfo(realmId, row);
  return dict;
}

/** Everyone learns the whole new dictionary (Zulip's notify_realm_emoji). */
function emitRealmEmoji(ctx: AppContext, tx: Tx): void {
  tx.emit({
    type: 'realm_emoji',
    users: activeUserIds(ctx.db),
    payload: {
      type: 'realm_emoji',
      op: 'update',
      realm_emoji: realmEmojiDict(ctx),
    } satisfies EventBody<'realm_emoji', 'update'>,
  });
}

const nameTaken = () => badRequest('A custom emoji with this name already exists.');

/**
 * POST /realm/emoji/{emoji_name}, in Zulip's order of checks: who may call,
 * the name, the organization's can_add_custom_emoji_group, a clash with an
 * active emoji, exactly one file, overriding a built-in (administrators only),
 * then the file's size and image.
 */
export async function addCustomEmoji(
  ctx: AppContext,
  user: UserRow,
  rawName: string,
  files: readonly UploadedFile[],
): Promise<Record<string, never>> {
  requireRole(user, 'member');
  requireRole(user, 'human');
  const name = normalizeEmojiName(rawName);
  checkValidEmojiName(name);
  const setting = loadRealm(ctx).settings.can_add_custom_emoji_group as StoredGroupSetting;
  if (!userHasGroupSetting(ctx, user, setting)) throw insufficientPermission();
  if (activeRealmEmojiByName(ctx.db, name)) throw nameTaken();
  if (files.length !== 1) throw badRequest('You must upload exactly one file.');
  if (unicodeEmojiCode(name) !== undefined && !isAdmin(user)) {
    throw badRequest('Only administrators can override default emoji.');
  }
  const [file] = files as [UploadedFile];
  if (file.truncated || file.size > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(
      `Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`,
    );
  }
  const contentType = contentTypeOf(file.contentType, file.fileName);
  const { extension } = emojiFormatFor(contentType);
  const resized = await resizeEmoji(file.path, contentType);

  ctx.transaction((tx) => {
    // Another upload may have taken the name while the image was being resized.
    if (activeRealmEmojiByName(ctx.db, name)) throw nameTaken();
    const id = insertRealmEmoji(ctx.db, name, user.id);
    const fileName = `${id}.${extension}`;
    writeStoredFiles(ctx, [
      { key: emojiFileKey(fileName), data: resized.image },
      ...(resized.still ? [{ key: stillFileKey(fileName), data: resized.still }] : []),
    ]);
    setRealmEmojiFile(ctx.db, id, fileName, resized.still !== null);
    emitRealmEmoji(ctx, tx);
  });
  return {};
}

/**
 * DELETE /realm/emoji/{emoji_name}: deactivates the active emoji of that name
 * (its image stays, for old messages). Administrators may remove any; others
 * only those they added (Zulip's check_remove_custom_emoji).
 */
export function deactivateCustomEmoji(
  ctx: AppContext,
  user: UserRow,
  name: string,
): Record<string, never> {
  const emoji = activeRealmEmojiByName(ctx.db, name);
  if (!emoji) {
    throw new ApiError(`Emoji '${name}' does not exist`, { status: 404 });
  }
  if (!isAdmin(user) && emoji.author_id !== user.id) {
    throw badRequest('Must be an organization administrator or emoji author');
  }
  ctx.transaction((tx) => {
    deactivateRealmEmojiRow(ctx.db, emoji.id);
    emitRealmEmoji(ctx, tx);
  });
  return {};
}

/** GET /realm/emoji: the list is public to everyone in the organization. */
export function listCustomEmoji(ctx: AppContext): { emoji: Record<string, RealmEmojiInfo> } {
  return { emoji: realmEmojiDict(ctx) };
}
