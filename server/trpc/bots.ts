import { z } from 'zod';
import { addBot, deactivateBot, regenerateBotApiKey } from '../bots/index.js';
import { visibleBots } from '../users/index.js';
import { blame, procedure, router } from './init.js';
import { userId } from './schemas.js';

export const botRouter = router({
  /** The realm_bots of POST /register: every bot for administrators, with its API key. */
  list: procedure.query(({ ctx }) => visibleBots(ctx.app, ctx.actor)),
  /** POST /bots: the answer carries the bot's API key. */
  create: blame({ shortName: /username|short/i, fullName: /name/i, payloadUrl: /url/i })
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
    .mutation(({ ctx, input }) => addBot(ctx.app, ctx.actor, input)),
  /** POST /bots/{bot_id}/api_key/regenerate */
  regenerateApiKey: procedure
    .input(z.object({ botId: userId }))
    .mutation(({ ctx, input }) => regenerateBotApiKey(ctx.app, ctx.actor, input.botId)),
  /** DELETE /bots/{bot_id} */
  deactivate: procedure
    .input(z.object({ botId: userId }))
    .mutation(({ ctx, input }) => deactivateBot(ctx.app, ctx.actor, input.botId)),
});
