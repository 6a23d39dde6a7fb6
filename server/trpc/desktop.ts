import { serverStatus } from '../hosting/index.js';
import { procedure, router } from './init.js';

/** The server as the desktop app runs it (state, URL, port fallback, restarts). */
export const desktopRouter = router({
  status: procedure.query(({ ctx }) => serverStatus(ctx.app, ctx.actor, ctx.desktop)),
});
