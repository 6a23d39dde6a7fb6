import { z } from 'zod';
import { openFolder, serverStatus } from '../hosting/index.js';
import { organizationExists } from '../realm/index.js';
import { procedure, router } from './init.js';

export const desktopRouter = router({
  /** The server as the desktop app runs it (state, URL, port fallback, restarts); also before setup. */
  status: procedure.query(({ ctx }) =>
    serverStatus(ctx.app, organizationExists(ctx.app) ? ctx.actor : null, ctx.desktop),
  ),
  /** Shows the data or backup folder in the desktop's file manager. */
  openFolder: procedure
    .input(z.object({ folder: z.enum(['data', 'backups']) }))
    .mutation(async ({ ctx, input }) => {
      await openFolder(ctx.app, ctx.actor, input.folder, ctx.desktop);
      return {};
    }),
});
