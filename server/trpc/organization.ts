import { z } from 'zod';
import { setJwtKey } from '../auth/index.js';
import {
  organizationInfo,
  organizationSettings,
  serverSettings,
  serverStatus,
  updateRealm,
} from '../realm/index.js';
import { blame, procedure, router } from './init.js';

export const serverRouter = router({
  settings: procedure.query(({ ctx }) => serverSettings(ctx.app)),
  /** Uptime, URL, database size, counts and live event queues. */
  status: procedure.query(({ ctx }) => serverStatus(ctx.app, ctx.actor)),
});

/** The settings the Organization page edits, as PATCH /realm names them. */
const realmChanges = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  allow_message_editing: z.boolean().optional(),
  allow_edit_history: z.boolean().optional(),
  mandatory_topics: z.boolean().optional(),
  emails_restricted_to_domains: z.boolean().optional(),
  enable_read_receipts: z.boolean().optional(),
  waiting_period_threshold: z.number().int().min(0).optional(),
});

export const organizationRouter = router({
  info: procedure.query(({ ctx }) => organizationInfo(ctx.app, ctx.actor, ctx.zuliprcPath)),
  settings: procedure.query(({ ctx }) => organizationSettings(ctx.app, ctx.actor)),
  /** PATCH /realm */
  update: blame({ name: /name/i, description: /description/i })
    .input(realmChanges)
    .mutation(({ ctx, input }) =>
      updateRealm(ctx.app, ctx.actor, { ...input, limits: {}, groups: {} }),
    ),
  /** The key POST /jwt/fetch_api_key checks tokens with (owners only); null turns JWT login off. */
  setJwtKey: blame({ key: /./ })
    .input(z.object({ key: z.string().nullable() }))
    .mutation(({ ctx, input }) => setJwtKey(ctx.app, ctx.actor, input.key)),
});
