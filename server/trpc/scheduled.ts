import { scheduledMessagesOverview } from '../scheduled/index.js';
import { procedure, router } from './init.js';

export const scheduledRouter = router({
  /** Every user's pending scheduled messages (direct messages without their text). */
  overview: procedure.query(({ ctx }) => scheduledMessagesOverview(ctx.app, ctx.actor)),
});
