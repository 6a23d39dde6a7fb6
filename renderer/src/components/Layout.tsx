import { type ReactNode, useEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { SECTIONS } from '../navigation.js';

/** The section a path belongs to: its own, or the one it is a detail of (/channels/3). */
const sectionOf = (path: string) =>
  SECTIONS.filter((s) => s.path === path || (s.path !== '/' && path.startsWith(`${s.path}/`)))[0]
    ?.path;

/**
 * Where the chat is: `/` of this server over HTTP; from the desktop's admin
 * file, the server's URL (the desktop shows it in the same window).
 */
function chatHref(serverUrl: string | null): string | null {
  if (location.protocol !== 'file:') return '/';
  return serverUrl ? `${serverUrl.replace(/\/+$/, '')}/` : null;
}

/**
 * Landmarks (banner, navigation, main), a skip link, and focus moved to the
 * new page's heading when the route changes, as a page load would.
 */
export function Layout({
  organization,
  serverUrl,
  children,
}: {
  organization: string;
  /** The URL clients use (organization.info), for the link back to the chat. */
  serverUrl: string | null;
  children: ReactNode;
}) {
  const chat = chatHref(serverUrl);
  const [location] = useLocation();
  const current = sectionOf(location);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each route change
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [location]);
  return (
    <>
      {/* A button, not a link to #main: from file:// the router lives in the hash. */}
      <button
        type="button"
        className="skip-link"
        onClick={() => document.getElementById('main')?.focus()}
      >
        Skip to content
      </button>
      <header className="topbar">
        <div className="brand">
          <img className="logo" src="icon.svg" alt="" width="22" height="22" />
          <span>Hearth</span>
          <span className="brand-sub">admin</span>
        </div>
        <div className="topbar-org">{organization}</div>
        {chat ? (
          <a className="topbar-link" href={chat}>
            Chat
          </a>
        ) : null}
      </header>
      <div className="frame">
        <nav className="sidenav" aria-label="Admin sections">
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.path}>
                <Link
                  href={section.path}
                  aria-current={current === section.path ? 'page' : undefined}
                >
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </>
  );
}

/** A page's title (focused on navigation) and its lead text. */
export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-title">
      <h1 tabIndex={-1}>{title}</h1>
      {children ? <p className="lead">{children}</p> : null}
    </div>
  );
}
