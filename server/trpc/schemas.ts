import { z } from 'zod';

export const userId = z.number().int().positive();

/**
 * The fields of Zulip's User object the admin UI relies on; the rest passes
 * through untouched. Results are parsed with it, so a drift in the domain's
 * format fails loudly here rather than in the UI.
 */
export const userRecord = z.looseObject({
  user_id: z.number(),
  email: z.string(),
  delivery_email: z.string().nullable(),
  full_name: z.string(),
  role: z.number(),
  is_active: z.boolean(),
  is_bot: z.boolean(),
  // Zulip gives the bot fields to bots only.
  bot_type: z.number().nullable().optional(),
  bot_owner_id: z.number().nullable().optional(),
  date_joined: z.string(),
});
export type UserRecord = z.infer<typeof userRecord>;

export const userList = z.object({ members: z.array(userRecord) });
