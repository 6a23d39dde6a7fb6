import { z } from 'zod';
import { botDeliveries, integrationCatalog, integrationUrl } from '../integrations/index.js';
import { procedure, router } from './init.js';
import { userId } from './schemas.js';

export const integrationRouter = router({
  /** The integrations, and the start of every URL (the server's external URL). */
  catalog: procedure.query(({ ctx }) => integrationCatalog(ctx.app)),
  /** The URL to paste into a tool, with the bot's key (its owner and administrators only). */
  url: procedure
    .input(
      z.object({
        botId: userId,
        integration: z.string(),
        stream: z.string().optional(),
        topic: z.string().optional(),
        onlyEvents: z.array(z.string()).optional(),
        excludeEvents: z.array(z.string()).optional(),
        options: z.record(z.string(), z.union([z.string(), z.boolean()])).optional(),
      }),
    )
    .query(({ ctx, input }) => ({ url: integrationUrl(ctx.app, ctx.actor, input) })),
  /** A bot's last deliveries to its integration URLs, newest first. */
  deliveries: procedure
    .input(z.object({ botId: userId }))
    .query(({ ctx, input }) => botDeliveries(ctx.app, ctx.actor, input.botId)),
});
