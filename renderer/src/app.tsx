import { useMemo, useState } from 'react';
import { Route, Router, Switch } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { type AdminAccess, adminAccess, createApi } from './api/client.js';
import { ApiProvider, useApi } from './api/context.js';
import { RefreshOrganizationProvider } from './api/organization-context.js';
import { useLoad } from './api/use-load.js';
import { Layout } from './components/Layout.js';
import { Notice } from './components/Notice.js';
import { DETAIL_ROUTES, SECTIONS } from './navigation.js';
import { SetupPage } from './pages/setup/SetupPage.js';

/** Over HTTP the pages have real URLs under /admin; from file:// (Electron) they live in the hash. */
const routerProps = location.protocol === 'file:' ? { hook: useHashLocation } : { base: '/admin' };

export function App() {
  const access = useMemo(adminAccess, []);
  const api = useMemo(() => createApi(access), [access]);
  if (!access) {
    return (
      <Notice title="Admin link needed">
        <a href="/">Log in to the chat</a> as an administrator, then come back here; or open the
        admin UI with the link Hearth printed when it started (it ends in <code>#token=…</code>), or
        from the desktop app.
      </Notice>
    );
  }
  return (
    <ApiProvider value={api}>
      <Router {...routerProps}>
        <Start access={access} />
      </Router>
    </ApiProvider>
  );
}

/** Shown to a chat user whose role the admin pages refuse. */
function AdministratorsOnly() {
  return (
    <Notice title="Administrators only">
      The admin pages are for the organization's administrators. <a href="/">Back to the chat</a>
    </Notice>
  );
}

/** First run shows the wizard; afterwards (or once it completes) the admin pages. */
function Start({ access }: { access: AdminAccess }) {
  const api = useApi();
  const [setUp, setSetUp] = useState(false);
  const [status] = useLoad(() => api.setup.status.query());
  if (status.state === 'loading') return <p className="muted boot">Loading…</p>;
  if (status.state === 'failed') {
    if (status.error.code === 'UNAUTHORIZED' && access.kind === 'session') {
      return (
        <Notice title="Chat login not accepted">
          Your chat session has expired or was ended. <a href="/">Log in to the chat</a> again.
        </Notice>
      );
    }
    return status.error.code === 'UNAUTHORIZED' ? (
      <Notice title="Admin token not accepted">
        This link's token is not the server's. Use the link Hearth printed at its latest start.
      </Notice>
    ) : (
      <Notice title="The server did not answer">{status.error.message}</Notice>
    );
  }
  if (status.value.needsSetup && !setUp) return <SetupPage onDone={() => setSetUp(true)} />;
  return <AdminPages />;
}

function AdminPages() {
  const api = useApi();
  const [info, reloadInfo] = useLoad(() => api.organization.info.query());
  // The chat's login of someone who is not an administrator.
  if (info.state === 'failed' && info.error.zulipCode === 'UNAUTHORIZED_PRINCIPAL') {
    return <AdministratorsOnly />;
  }
  return (
    <RefreshOrganizationProvider value={reloadInfo}>
      <Layout
        organization={info.state === 'ready' ? info.value.name : ''}
        serverUrl={info.state === 'ready' ? info.value.url : null}
      >
        <Switch>
          {SECTIONS.map(({ path, page }) => (
            <Route key={path} path={path} component={page} />
          ))}
          {DETAIL_ROUTES.map(({ path, page }) => (
            <Route key={path} path={path} component={page} />
          ))}
          <Route>
            <Notice title="No such page" inline>
              This admin page does not exist.
            </Notice>
          </Route>
        </Switch>
      </Layout>
    </RefreshOrganizationProvider>
  );
}
