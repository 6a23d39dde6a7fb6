import { z } from 'zod';
import { addPlayground, listPlaygrounds, removePlayground } from '../playgrounds/index.js';
import {
  addRealmDomain,
  listRealmDomains,
  removeRealmDomain,
  updateRealmDomain,
} from '../realm-domains/index.js';
import { blame, procedure, router } from './init.js';

/** Code playgrounds: /realm/playgrounds (their list is register's realm_playgrounds). */
export const playgroundRouter = router({
  // Everyone sees them in POST /register, so listing needs no role.
  list: procedure.query(({ ctx }) => listPlaygrounds(ctx.app)),
  create: blame({ pygmentsLanguage: /language/i, urlTemplate: /url|template/i, name: /name/i })
    .input(z.object({ name: z.string(), pygmentsLanguage: z.string(), urlTemplate: z.string() }))
    .mutation(({ ctx, input }) => addPlayground(ctx.app, ctx.actor, input)),
  remove: procedure
    .input(z.object({ playgroundId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => removePlayground(ctx.app, ctx.actor, input.playgroundId)),
});

/** Allowed e-mail domains: /realm/domains (their list is register's realm_domains). */
export const realmDomainRouter = router({
  list: procedure.query(({ ctx }) => listRealmDomains(ctx.app)),
  add: blame({ domain: /./ })
    .input(z.object({ domain: z.string(), allowSubdomains: z.boolean() }))
    .mutation(({ ctx, input }) => addRealmDomain(ctx.app, ctx.actor, input)),
  update: procedure
    .input(z.object({ domain: z.string(), allowSubdomains: z.boolean() }))
    .mutation(({ ctx, input }) =>
      updateRealmDomain(ctx.app, ctx.actor, input.domain, input.allowSubdomains),
    ),
  remove: procedure
    .input(z.object({ domain: z.string() }))
    .mutation(({ ctx, input }) => removeRealmDomain(ctx.app, ctx.actor, input.domain)),
});
