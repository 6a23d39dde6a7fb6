/**
 * Where a URL the window was asked to go to leads. The window shows two
 * pages only: the admin UI (a file inside the app) and the chat (the
 * server's `/`, over http). Anything else the chat links to is either one of
 * the server's files (uploads: downloaded with the window's cookie, which an
 * external browser lacks) or another site (the user's browser).
 */
import { pathToFileURL } from 'node:url';

export type Destination =
  | { kind: 'chat'; url: string }
  | { kind: 'admin' }
  | { kind: 'download'; url: string }
  | { kind: 'external'; url: string }
  | { kind: 'blocked' };

export interface WindowPlaces {
  /** The admin page's file (renderer/dist/index.html inside the app). */
  adminPagePath: string;
  /** How this machine reaches the server (http://127.0.0.1:PORT), while it runs. */
  localUrl: string | null;
  /**
   * The URL clients use (a LAN address or a proxy's name): links to it from
   * the chat or the admin UI are this server too, shown at the local URL.
   */
  clientUrl: string | null;
}

/** Schemes handed to the system (the browser, the mail program). */
const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** The URL without its hash (the admin router's route) or query. */
const pageOf = (url: URL) => {
  const page = new URL(url);
  page.hash = '';
  page.search = '';
  return page.href;
};

const originOf = (url: string | null) => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

export const adminPageUrl = (adminPagePath: string) => pathToFileURL(adminPagePath).href;

/** Whether `url` (a frame's URL) is the admin page, whatever its route in the hash. */
export function isAdminPage(url: string | undefined, adminPagePath: string): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'file:' && pageOf(parsed) === adminPageUrl(adminPagePath);
  } catch {
    return false;
  }
}

export function destinationOf(target: string, places: WindowPlaces): Destination {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { kind: 'blocked' };
  }
  if (url.protocol === 'file:') {
    return isAdminPage(target, places.adminPagePath) ? { kind: 'admin' } : { kind: 'blocked' };
  }
  const local = originOf(places.localUrl);
  const ours =
    local !== null && (url.origin === local || url.origin === originOf(places.clientUrl));
  if (ours) {
    // Over http the admin UI lives at /admin/; in the window it is the app's own file.
    if (url.pathname === '/admin' || url.pathname.startsWith('/admin/')) return { kind: 'admin' };
    const atLocal = `${local}${url.pathname}${url.search}${url.hash}`;
    return url.pathname === '/'
      ? { kind: 'chat', url: atLocal }
      : { kind: 'download', url: atLocal };
  }
  return EXTERNAL_SCHEMES.has(url.protocol)
    ? { kind: 'external', url: url.href }
    : { kind: 'blocked' };
}
