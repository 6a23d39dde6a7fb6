import { z } from 'zod';
import { completeSetup } from '../bootstrap.js';
import { organizationExists } from '../realm/index.js';
import { procedure, router } from './init.js';

/**
 * The desktop's first-run wizard. Neither procedure reads `ctx.actor`: before
 * setup there is no owner to act as.
 */
export const setupRouter = router({
  status: procedure.query(({ ctx }) => ({ needsSetup: !organizationExists(ctx.app) })),
  complete: procedure
    .input(
      z.object({
        realmName: z.string(),
        ownerName: z.string(),
        email: z.string(),
        password: z.string(),
      }),
    )
    .mutation(({ ctx, input }) => completeSetup(ctx.app, ctx.zuliprcPath, input)),
});
