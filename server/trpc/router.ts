import { z } from 'zod';
import { setJwtKey } from '../auth/index.js';
import { organizationInfo, serverSettings } from '../realm/index.js';
import {
  createBot,
  createUser,
  deactivateUser,
  getUserById,
  listUsers,
  reactivateUser,
  updateUser,
} from '../users/index.js';
import { backupRouter } from './backup.js';
import { desktopRouter } from './desktop.js';
import { procedure, router } from './init.js';
import { logsRouter } from './logs.js';
import { networkRouter } from './network.js';
import { userId, userList, userRecord } from './schemas.js';

/*
 * Thin adapters, as the HTTP routes are: check the input's shape, call the
 * operation the matching /api/v1 endpoint calls, return its result (user
 * records are checked against the fields the UI relies on, which also types
 * them). Permissions, validation messages and events all come from the areas.
 */

const serverRouter = router({
  settings: procedure.query(({ ctx }) => serverSettings(ctx.app)),
});

const organizationRouter = router({
  info: procedure.query(({ ctx }) => organizationInfo(ctx.app, ctx.actor, ctx.zuliprcPath)),
  /** The key POST /jwt/fetch_api_key checks tokens with (owners only); null turns JWT login off. */
  setJwtKey: procedure
    .input(z.object({ key: z.string().nullable() }))
    .mutation(({ ctx, input }) => setJwtKey(ctx.app, ctx.actor, input.key)),
});

const userRouter = router({
  /** GET /users */
  list: procedure.query(({ ctx }) =>
    userList.parse(listUsers(ctx.app, ctx.actor, { includeCustomProfileFields: false })),
  ),
  /** GET /users/{user_id} */
  get: procedure.input(z.object({ userId })).query(({ ctx, input }) =>
    userRecord.parse(
      getUserById(ctx.app, ctx.actor, input.userId, {
        includeCustomProfileFields: false,
      }),
    ),
  ),
  /**
   * POST /users. Like the endpoint it takes no role (set one with users.update,
   * which enforces who may grant which role) and keeps the new API key private.
   */
  create: procedure
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
  update: procedure
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
});

const botRouter = router({
  /** POST /bots: the answer carries the bot's API key. */
  create: procedure
    .input(
      z.object({
        fullName: z.string(),
        shortName: z.string(),
        botType: z.number().int().default(1),
        payloadUrl: z.string().optional(),
        interfaceType: z.number().int().optional(),
        serviceName: z.string().optional(),
        configData: z.record(z.string(), z.string()).optional(),
      }),
    )
    .mutation(({ ctx, input }) => createBot(ctx.app, ctx.actor, input)),
});

export function createAppRouter() {
  return router({
    server: serverRouter,
    organization: organizationRouter,
    users: userRouter,
    bots: botRouter,
    backup: backupRouter,
    desktop: desktopRouter,
    network: networkRouter,
    logs: logsRouter,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
