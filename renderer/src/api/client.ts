import { createTRPCClient, httpBatchLink, type TRPCLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import superjson from 'superjson';
import { ipcLink } from 'trpc-electron/renderer';
import type { AppRouter } from '../../../server/trpc/router.js';

declare global {
  interface Window {
    /** Set by the Electron preload (trpc-electron's exposeElectronTRPC). */
    electronTRPC?: unknown;
  }
}

export type Api = ReturnType<typeof createTRPCClient<AppRouter>>;
export type Outputs = inferRouterOutputs<AppRouter>;

const TOKEN_KEY = 'hearth-admin-token';

/**
 * The admin token from `#token=…` (kept for this tab's session, then removed
 * from the address bar so it does not linger in history or screenshots).
 */
export function takeAdminToken(): string | null {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
    return fromHash;
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

export const insideElectron = () => window.electronTRPC !== undefined;

/**
 * Inside the desktop app the calls go over IPC to the main process; in a
 * browser they go to this server's /trpc with the admin token.
 */
export function createApi(token: string | null): Api {
  const link: TRPCLink<AppRouter> = insideElectron()
    ? ipcLink<AppRouter>({ transformer: superjson })
    : httpBatchLink<AppRouter>({
        url: new URL('/trpc', location.href).toString(),
        transformer: superjson,
        // The server caps the batched procedure list in the path at 100 characters.
        maxItems: 3,
        headers: () => (token ? { Authorization: `Bearer ${token}` } : {}),
      });
  return createTRPCClient<AppRouter>({ links: [link] });
}
