import { z } from 'zod';
import {
  networkOverview,
  replaceCertificateAuthority,
  updateNetworkSettings,
} from '../hosting/index.js';
import { procedure, router } from './init.js';

/** Serving the LAN: where the server listens and the URLs clients use. */
export const networkRouter = router({
  get: procedure.query(({ ctx }) => networkOverview(ctx.app, ctx.actor, ctx.desktop)),
  /** Saves; the desktop restarts its server on it, elsewhere the answer says a restart is due. */
  set: procedure
    .input(
      z.object({
        lan: z.boolean(),
        interfaceAddress: z.string().max(100).nullish(),
        externalUrl: z.string().max(2000).nullish(),
        tlsCertFile: z.string().max(4096).nullish(),
        tlsKeyFile: z.string().max(4096).nullish(),
        tlsPassphrase: z.string().max(1024).nullish(),
      }),
    )
    .mutation(({ ctx, input }) => updateNetworkSettings(ctx.app, ctx.actor, input, ctx.desktop)),
  /** A damaged certificate authority: set it aside and make a new one (the owner's choice). */
  replaceAuthority: procedure.mutation(({ ctx }) =>
    replaceCertificateAuthority(ctx.app, ctx.actor, ctx.desktop),
  ),
});
