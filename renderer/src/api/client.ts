import { createTRPCClient, httpBatchLink, type TRPCLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import superjson from 'superjson';
import type { IpcPort } from '../../../server/trpc/ipc-wire.js';
import type { AppRouter } from '../../../server/trpc/router.js';
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

/** Where the chat keeps its login (renderer/src/chat/data/session.ts writes it). */
const CHAT_CREDENTIALS_KEY = 'hearth-chat-credentials';

export interface ChatCredentials {
  email: string;
  apiKey: string;
}

/**
 * The chat's saved login on this origin, if any: without the admin token,
 * the admin UI acts as that user (an administrator sees the admin pages).
 */
export function savedChatCredentials(): ChatCredentials | null {
  try {
    const saved = JSON.parse(localStorage.getItem(CHAT_CREDENTIALS_KEY) ?? 'null') as unknown;
    if (!saved || typeof saved !== 'object') return null;
    const { email, apiKey } = saved as Record<string, unknown>;
    return typeof email === 'string' && typeof apiKey === 'string' && email && apiKey
      ? { email, apiKey }
      : null;
  } catch {
    return null;
  }
}

/** HTTP Basic for an e-mail and API key (UTF-8, as the server decodes it). */
function basicAuthorization({ email, apiKey }: ChatCredentials): string {
  const bytes = new TextEncoder().encode(`${email}:${apiKey}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/** How the admin UI is allowed in: the desktop's IPC, the admin token, or the chat's login. */
export type AdminAccess =
  | { kind: 'electron' }
  | { kind: 'token'; token: string }
  | { kind: 'chat-login'; credentials: ChatCredentials };

export function adminAccess(): AdminAccess | null {
  if (insideElectron()) return { kind: 'electron' };
  const token = takeAdminToken();
  if (token) return { kind: 'token', token };
  const credentials = savedChatCredentials();
  return credentials ? { kind: 'chat-login', credentials } : null;
}

/**
 * Inside the desktop app the calls go over IPC to the main process; in a
 * browser they go to this server's /trpc with the admin token, or as the
 * chat's logged-in user (the procedures check that user's role).
 */
export function createApi(access: AdminAccess | null): Api {
  const authorization =
    access?.kind === 'token'
      ? `Bearer ${access.token}`
      : access?.kind === 'chat-login'
        ? basicAuthorization(access.credentials)
        : null;
  const port = window.hearthIpc;
  const link: TRPCLink<AppRouter> =
    access?.kind === 'electron' && port
      ? ipcLink<AppRouter>({ port, transformer: superjson })
      : httpBatchLink<AppRouter>({
          url: new URL('/trpc', location.href).toString(),
          transformer: superjson,
          // The server caps the batched procedure list in the path at 100 characters.
          maxItems: 3,
          headers: () => (authorization ? { Authorization: authorization } : {}),
        });
  return createTRPCClient<AppRouter>({ links: [link] });
}
