import { z } from 'zod';
import { getBotStorage, removeBotStorage, updateBotStorage } from '../../bot-storage/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

/**
 * A JSON object of strings, kept as entries: a zod record would silently
 * drop a key named "__proto__", and bots may store any key.
 */
const stringDictEntries = z.unknown().transform((value, ctx) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: '{var_name} is not a dict' });
    return z.NEVER;
  }
  const entries: [string, string][] = [];
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') {
      ctx.addIssue({ code: 'custom', path: [key], message: '{var_name} is not a string' });
      return z.NEVER;
    }
    entries.push([key, item]);
  }
  return entries;
});

const keys = p.json(z.array(z.string())).optional();

/** /bot_storage: PUT, GET, DELETE (bots only). */
export const botStorageRoutes = [
  route({
    method: 'PUT',
    path: '/bot_storage',
    api: '/bot_storage',
    // A caller who is not a bot hears that before anything about `storage`.
    requires: 'bot',
    params: { storage: p.json(stringDictEntries) },
    handler: (ctx, user, params) => updateBotStorage(ctx, user, params.storage),
  }),
  route({
    method: 'GET',
    path: '/bot_storage',
    api: '/bot_storage',
    params: { keys },
    handler: (ctx, user, params) => getBotStorage(ctx, user, params.keys),
  }),
  route({
    method: 'DELETE',
    path: '/bot_storage',
    api: '/bot_storage',
    params: { keys },
    handler: (ctx, user, params) => removeBotStorage(ctx, user, params.keys),
  }),
];
