import { z } from 'zod';
import { zuliprcText } from '../bootstrap.js';
import {
  accountCredentials,
  createUser,
  deactivateUser,
  getUserById,
  listUsers,
  reactivateUser,
  regenerateUserApiKey,
  setUserPassword,
  updateUser,
} from '../users/index.js';
import { blame, procedure, router } from './init.js';
import { userId, userList, userRecord } from './schemas.js';

const lookup = { clientGravatar: false, includeCustomProfileFields: false };

/** The domain's messages name no field; these say which input they are about. */
const personFields = { email: /email/i, fullName: /name/i, password: /password/i };

export const userRouter = router({
  /** GET /users */
  list: procedure.query(({ ctx }) => userList.parse(listUsers(ctx.app, ctx.actor, lookup))),
  /** GET /users/{user_id} */
  get: procedure
    .input(z.object({ userId }))
    .query(({ ctx, input }) =>
      userRecord.parse(getUserById(ctx.app, ctx.actor, input.userId, lookup)),
    ),
  /**
   * POST /users. Like the endpoint it takes no role (set one with users.update,
   * which enforces who may grant which role) and keeps the new API key private.
   */
  create: blame(personFields)
    .input(
      z.object({
        email: z.string(),
        fullName: z.string(),
        password: z.string().nullable().default(null),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { user_id } = await createUser(ctx.app, ctx.actor, input);
      return { user_id };
    }),
  /** PATCH /users/{user_id} */
  update: blame({ fullName: /name/i, role: /role|owner/i })
    .input(z.object({ userId, fullName: z.string().optional(), role: z.number().int().optional() }))
    .mutation(({ ctx, input }) =>
      updateUser(ctx.app, ctx.actor, input.userId, { fullName: input.fullName, role: input.role }),
    ),
  /** DELETE /users/{user_id} */
  deactivate: procedure
    .input(z.object({ userId }))
    .mutation(({ ctx, input }) => deactivateUser(ctx.app, ctx.actor, input.userId)),
  /** POST /users/{user_id}/reactivate */
  reactivate: procedure
    .input(z.object({ userId }))
    .mutation(({ ctx, input }) => reactivateUser(ctx.app, ctx.actor, input.userId)),
  /** Sets a person's password (Hearth mails no reset links). */
  setPassword: blame({ password: /password/i })
    .input(z.object({ userId, password: z.string() }))
    .mutation(({ ctx, input }) =>
      setUserPassword(ctx.app, ctx.actor, input.userId, input.password),
    ),
  /** A new API key for a person; the old one stops working. */
  regenerateApiKey: procedure
    .input(z.object({ userId }))
    .mutation(({ ctx, input }) => regenerateUserApiKey(ctx.app, ctx.actor, input.userId)),
  /** The account's zuliprc (INI) for Zulip's API clients and terminal apps. */
  zuliprc: procedure.input(z.object({ userId })).query(({ ctx, input }) => {
    const { email, apiKey } = accountCredentials(ctx.app, ctx.actor, input.userId);
    return { text: zuliprcText(email, apiKey, ctx.app.config.externalUrl) };
  }),
});
