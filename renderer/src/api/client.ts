import { createTRPCClient, httpBatchLink, type TRPCLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import superjson from 'superjson';
import type { IpcPort } from '../../../server/trpc/ipc-wire.js';
import type { AppRouter } from '../../../server/trpc/router.js';
import { CSRF_HEADER } from '../chat/data/api.js';
import { csrfTokenFromCookie, dropLegacyCredentials, hasSession } from '../chat/data/session.js';
import { ipcLink } from './ipc-link.js';

declare global {
  interface Window {
    /** Set by the desktop app's preload (main/preload.ts) for the admin page only. */
    hearthIpc?: IpcPort;
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

export const insideElectron = () => window.hearthIpc !== undefined;

/**
 * How the admin UI is allowed in: the desktop's IPC, the admin token, or
 * the chat's browser session on this origin (its cookie, which the browser
 * sends, and its CSRF token, echoed on every call): the procedures then act
 * as that user and check their role.
 */
export type AdminAccess =
  | { kind: 'electron' }
  | { kind: 'token'; token: string }
  | { kind: 'session' };

export function adminAccess(): AdminAccess | null {
  if (insideElectron()) return { kind: 'electron' };
  // An API key an earlier chat saved here no longer opens anything.
  dropLegacyCredentials();
  const token = takeAdminToken();
  if (token) return { kind: 'token', token };
  return hasSession() ? { kind: 'session' } : null;
}

/** The headers that say who calls /trpc, read at each call (the session's cookie may change). */
function credentialHeaders(access: AdminAccess | null): Record<string, string> {
  if (access?.kind === 'token') return { Authorization: `Bearer ${access.token}` };
  const csrf = access?.kind === 'session' ? csrfTokenFromCookie() : null;
  return csrf ? { [CSRF_HEADER]: csrf } : {};
}

/**
 * Inside the desktop app the calls go over IPC to the main process; in a
 * browser they go to this server's /trpc with the admin token, or as the
 * chat's logged-in user (the procedures check that user's role).
 */
export function createApi(access: AdminAccess | null): Api {
  const port = window.hearthIpc;
  const link: TRPCLink<AppRouter> =
    access?.kind === 'electron' && port
      ? ipcLink<AppRouter>({ port, transformer: superjson })
      : httpBatchLink<AppRouter>({
          url: new URL('/trpc', location.href).toString(),
          transformer: superjson,
          // The server caps the batched procedure list in the path at 100 characters.
          maxItems: 3,
          headers: () => credentialHeaders(access),
        });
  return createTRPCClient<AppRouter>({ links: [link] });
}
