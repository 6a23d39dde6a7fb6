import { z } from 'zod';
import { backupsOf } from '../backup/index.js';
import { completeSetup } from '../bootstrap.js';
import { importIntoNewOrganization } from '../portability/index.js';
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
    .mutation(async ({ ctx, input }) => {
      const done = await completeSetup(ctx.app, ctx.zuliprcPath, input);
      // Whoever sets up through the wizard runs the app for a team and may
      // never visit the Backups page: daily backups start on (owners can turn
      // them off). A headless server keeps them off until asked.
      await backupsOf(ctx.app).updateSettings({ enabled: true });
      return done;
    }),
  /**
   * "Import from Zulip": the organization comes from a Zulip export, its
   * owner gets the password given here; the server restarts on it
   * (`restartRequired`: the page waits for it, then reloads).
   */
  importZulip: procedure
    .input(z.object({ source: z.string().max(4096), ownerPassword: z.string().max(1024) }))
    .mutation(async ({ ctx, input }) => {
      const done = await importIntoNewOrganization(ctx.app, input);
      await backupsOf(ctx.app).updateSettings({ enabled: true });
      return done;
    }),
});
