import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  botStorageEntries,
  botStorageEntrySize,
  botStorageSize,
  botStorageValue,
  deleteBotStorage,
  deleteBotStorageEntry,
  putBotStorageEntry,
} from '../db/queries/bot-storage.js';
import type { UserRow } from '../db/queries/users.js';
import { BOT_STORAGE_SIZE_LIMIT } from '../shared/limits.js';
import { requireRole } from '../shared/roles.js';

/** Zulip's wording; zulip_bots code compares against this exact text. */
const keyDoesNotExist = () => badRequest('Key does not exist.');

const storageLimitExceeded = (excess: number) =>
  badRequest(
    `Request exceeds storage limit by ${excess} characters. The limit is ${BOT_STORAGE_SIZE_LIMIT} characters.`,
  );

/** Characters as Zulip counts them (code points, not UTF-16 units). */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * The result's `storage`: a JSON object built with defined properties, so a
 * key such as "__proto__" comes back as a key like any other.
 */
function storageObject(entries: Iterable<readonly [string, string]>): Record<string, string> {
  return Object.fromEntries(entries);
}

/**
 * PUT /bot_storage: adds or replaces entries. The limit applies to the
 * storage as it would be after the request (Zulip's set_bot_storage); the
 * request is all or nothing.
 */
export function updateBotStorage(
  ctx: AppContext,
  bot: UserRow,
  storage: ReadonlyArray<readonly [string, string]>,
): Record<string, never> {
  requireRole(bot, 'bot');
  ctx.transaction(() => {
    const entries = new Map(storage);
    let difference = 0;
    const sized = [...entries].map(([key, value]) => {
      const size = characters(key) + characters(value);
      difference += size - botStorageEntrySize(ctx.db, bot.id, key);
      return { key, value, size };
    });
    const newSize = botStorageSize(ctx.db, bot.id) + difference;
    if (newSize > BOT_STORAGE_SIZE_LIMIT)
      throw storageLimitExceeded(newSize - BOT_STORAGE_SIZE_LIMIT);
    for (const entry of sized) putBotStorageEntry(ctx.db, bot.id, entry);
  });
  return {};
}

/** GET /bot_storage: the listed keys (each must exist), or everything. */
export function getBotStorage(
  ctx: AppContext,
  bot: UserRow,
  keys: readonly string[] | undefined,
): { storage: Record<string, string> } {
  requireRole(bot, 'bot');
  if (keys === undefined) {
    return {
      storage: storageObject(botStorageEntries(ctx.db, bot.id).map((e) => [e.key, e.value])),
    };
  }
  const found: [string, string][] = [];
  for (const key of keys) {
    const value = botStorageValue(ctx.db, bot.id, key);
    if (value === undefined) throw keyDoesNotExist();
    found.push([key, value]);
  }
  return { storage: storageObject(found) };
}

/**
 * DELETE /bot_storage: the listed keys, or everything when `keys` is absent.
 * Nothing is removed when one listed key does not exist. As in Zulip, a key
 * listed twice counts as a missing one (the number of matching entries is
 * compared with the length of the list).
 */
export function removeBotStorage(
  ctx: AppContext,
  bot: UserRow,
  keys: readonly string[] | undefined,
): Record<string, never> {
  requireRole(bot, 'bot');
  ctx.transaction(() => {
    if (keys === undefined) {
      deleteBotStorage(ctx.db, bot.id);
      return;
    }
    const present = new Set(
      keys.filter((key) => botStorageValue(ctx.db, bot.id, key) !== undefined),
    );
    if (present.size < keys.length) throw keyDoesNotExist();
    for (const key of present) deleteBotStorageEntry(ctx.db, bot.id, key);
  });
  return {};
}
