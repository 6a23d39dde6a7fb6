import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ChatState, ChatStore, Narrow } from '../data/model.js';
import { dropLegacyCredentials, forgetSession, hasSession, sessionApi } from '../data/session.js';
import { createChatStore } from '../data/store.js';
import { ChatStoreProvider, useChat } from '../data/store-context.js';
import { ChatShell } from './ChatShell.js';
import { LoginPage } from './LoginPage.js';
import { routeFromHash } from './routing.js';

/** The feed the address opens on (the shell shows the same route), if it is one. */
function openingNarrow(state: ChatState): Narrow | null {
  const route = routeFromHash(location.hash, state);
  return route.kind === 'feed' ? route.narrow : null;
}

/** An API key an earlier version kept in this browser, dropped unused at load. */
const droppedSavedKey = typeof localStorage !== 'undefined' && dropLegacyCredentials();

/**
 * The login page until the browser holds a session, then the chat on its
 * own store; each log-in starts a fresh one.
 */
export function App() {
  const [login, setLogin] = useState<number | null>(() => (hasSession() ? 0 : null));
  if (login === null) {
    return (
      <LoginPage
        notice={
          droppedSavedKey
            ? 'Hearth now keeps you logged in with a session that expires. Please log in again.'
            : null
        }
        onLoggedIn={() => setLogin((n) => (n ?? 0) + 1)}
      />
    );
  }
  return (
    <ChatSession
      key={login}
      onLoggedOut={() => {
        forgetSession();
        setLogin(null);
      }}
    />
  );
}

function ChatSession({ onLoggedOut }: { onLoggedOut: () => void }) {
  const [store, setStore] = useState<ChatStore | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // Made in an effect so a re-mount (a new login) closes the old queue first; a layout
  // effect, so the store starts as soon as this commits rather than after a first paint.
  useLayoutEffect(() => {
    let created: ChatStore;
    try {
      created = createChatStore(sessionApi(), { openingNarrow });
    } catch (err) {
      setFailure(err instanceof Error ? err.message : String(err));
      return;
    }
    setStore(created);
    const closeOnUnload = () => created.close();
    window.addEventListener('pagehide', closeOnUnload);
    return () => {
      window.removeEventListener('pagehide', closeOnUnload);
      created.close();
    };
  }, []);

  if (failure) {
    return (
      <p className="boot error" role="alert">
        {failure}
      </p>
    );
  }
  if (!store) return <p className="boot">Loading…</p>;
  return (
    <ChatStoreProvider value={store}>
      <Connected
        onLogOut={() => {
          void store.actions.logOut().finally(onLoggedOut);
        }}
        onLoggedOut={onLoggedOut}
      />
    </ChatStoreProvider>
  );
}

/**
 * How long the shell may wait for the opening feed's first messages once
 * register is in. Shown together they take one render, layout and paint
 * instead of two; the answer is usually there already (boot.ts asked early).
 */
export const OPENING_FEED_WAIT_MS = 400;

/**
 * Waits for the first register (and, briefly, the opening feed's messages);
 * a session the server no longer accepts logs out.
 */
function Connected({ onLogOut, onLoggedOut }: { onLogOut: () => void; onLoggedOut: () => void }) {
  const connection = useChat((s) => s.connection);
  const registered = useChat((s) => s.ownUserId !== 0 && s.users.size > 0);
  const feedComing = useChat(
    (s) => s.list !== null && s.list.ids.length === 0 && s.list.loadingNewer && !s.list.error,
  );
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (!registered) return;
    const timer = setTimeout(() => setWaited(true), OPENING_FEED_WAIT_MS);
    return () => clearTimeout(timer);
  }, [registered]);
  // Once shown, the shell stays: later narrows show their own loading state.
  const shown = useRef(false);
  if (registered && (!feedComing || waited)) shown.current = true;
  useEffect(() => {
    if (connection === 'logged-out') onLoggedOut();
  }, [connection, onLoggedOut]);
  if (!shown.current) {
    return (
      <p className="boot" role="status">
        {connection === 'reconnecting' ? 'Cannot reach the server. Retrying…' : 'Connecting…'}
      </p>
    );
  }
  return <ChatShell onLogOut={onLogOut} />;
}
