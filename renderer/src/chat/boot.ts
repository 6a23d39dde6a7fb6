/**
 * The chat page's first script (chat/boot.js), a few kilobytes run before the
 * app's bundle. With a session it sends register at once and, once
 * register has answered, asks for the feed the address names, as far as the
 * address alone tells it (`#narrow/channel/9-infra` carries the id). The
 * bundle takes a few hundred milliseconds to arrive, compile and run before
 * its store would ask; by then the answers are on their way, and the
 * store's own identical requests take them (ZulipApi.headStart). A guess
 * that turns out wrong once register's state resolves the address is
 * simply not taken.
 */
import { firstWindowParams } from './data/feed-window.js';
import { REGISTER_PARAMS } from './data/register-params.js';
import { hasSession, sessionApi } from './data/session.js';
import { initialChatState } from './data/state.js';
import { startColorScheme } from './settings/appearance.js';
import { routeFromHash } from './views/routes.js';

// Before the stylesheet applies: the page starts light or dark as the person last chose.
startColorScheme();

if (hasSession()) {
  const api = sessionApi();
  const registered = api.headStart('POST', '/register', REGISTER_PARAMS);
  const route = routeFromHash(location.hash, initialChatState());
  if (route.kind === 'feed') {
    // Only after register has answered: a message sent in between is then in
    // this answer or among the new queue's events, as when the store asks itself.
    registered.then(
      (response) => {
        if (response.ok) api.headStart('GET', '/messages', firstWindowParams(route.narrow));
      },
      () => {},
    );
  }
  // A page's first date format loads the locale's data (20-40 ms in a fresh
  // tab on a busy machine, measured); the first messages need it, so it is
  // loaded now, while chat.js is still downloading.
  new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(0);
}
