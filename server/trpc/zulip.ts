import { z } from 'zod';
import { deleteRealmExport, requestFullExport, zulipMoveOverview } from '../portability/index.js';
import { procedure, router } from './init.js';

/** The admin page "Move to Zulip Server": exports in Zulip's format and their progress. */
export const zulipRouter = router({
  /** The target release line, what does not travel, and the exports with their progress. */
  overview: procedure.query(({ ctx }) => zulipMoveOverview(ctx.app, ctx.actor)),
  /** Starts a full export (owners); poll overview for its progress. */
  startExport: procedure.mutation(({ ctx }) => requestFullExport(ctx.app, ctx.actor)),
  remove: procedure
    .input(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteRealmExport(ctx.app, ctx.actor, input.id)),
});
