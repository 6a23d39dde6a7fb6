import { z } from 'zod';
import {
  createInvitationLink,
  inviteUsers,
  listInvitations,
  revokeInvitation,
} from '../invites/index.js';
import {
  addLinkifier,
  changeLinkifier,
  listLinkifiers,
  removeLinkifier,
  reorderLinkifiers,
} from '../linkifiers/index.js';
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

/** Linkifiers: /realm/linkifiers and /realm/filters (their list is register's realm_linkifiers). */
export const linkifierRouter = router({
  list: procedure.query(({ ctx }) => listLinkifiers(ctx.app).linkifiers),
  add: blame({ urlTemplate: /url template|group/i, pattern: /./ })
    .input(z.object({ pattern: z.string(), urlTemplate: z.string() }))
    .mutation(({ ctx, input }) => addLinkifier(ctx.app, ctx.actor, input)),
  update: blame({ urlTemplate: /url template|group/i, pattern: /./ })
    .input(
      z.object({ id: z.number().int().positive(), pattern: z.string(), urlTemplate: z.string() }),
    )
    .mutation(({ ctx, input }) =>
      changeLinkifier(ctx.app, ctx.actor, input.id, {
        pattern: input.pattern,
        urlTemplate: input.urlTemplate,
      }),
    ),
  remove: procedure
    .input(z.object({ id: z.number().int().positive() }))
    .mutation(({ ctx, input }) => removeLinkifier(ctx.app, ctx.actor, input.id)),
  reorder: procedure
    .input(z.object({ orderedIds: z.array(z.number().int()) }))
    .mutation(({ ctx, input }) => reorderLinkifiers(ctx.app, ctx.actor, input.orderedIds)),
});

/** Invitations: /invites and /invites/multiuse. */
export const invitationRouter = router({
  list: procedure.query(({ ctx }) => listInvitations(ctx.app, ctx.actor).invites),
  createLink: procedure
    .input(
      z.object({
        inviteAs: z.number().int(),
        expiresInMinutes: z.number().int().positive().nullable(),
        streamIds: z.array(z.number().int()).default([]),
      }),
    )
    .mutation(({ ctx, input }) =>
      createInvitationLink(ctx.app, ctx.actor, {
        inviteAs: input.inviteAs,
        expiresInMinutes: input.expiresInMinutes,
        streamIds: input.streamIds,
        includeRealmDefaultSubscriptions: true,
        welcomeMessageCustomText: null,
      }),
    ),
  invite: blame({ emails: /./ })
    .input(
      z.object({
        emails: z.string(),
        inviteAs: z.number().int(),
        expiresInMinutes: z.number().int().positive().nullable(),
      }),
    )
    .mutation(({ ctx, input }) =>
      inviteUsers(ctx.app, ctx.actor, input.emails, {
        inviteAs: input.inviteAs,
        expiresInMinutes: input.expiresInMinutes,
        streamIds: [],
        includeRealmDefaultSubscriptions: true,
        welcomeMessageCustomText: null,
        notifyReferrerOnJoin: true,
      }),
    ),
  revoke: procedure
    .input(z.object({ id: z.number().int().positive(), isMultiuse: z.boolean() }))
    .mutation(({ ctx, input }) => revokeInvitation(ctx.app, ctx.actor, input.id, input.isMultiuse)),
});
