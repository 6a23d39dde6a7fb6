import { useEffect } from 'react';
import { insideElectron } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { formatBytes, formatDuration } from '../../labels.js';
import { DesktopFacts } from './DesktopFacts.js';

/** How often the figures refresh while the page is open. */
const REFRESH_MS = 10_000;

export function StatusPage() {
  const api = useApi();
  const [status, reload] = useLoad(() => api.server.status.query());
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return (
    <>
      <PageTitle title="Server status" />
      {insideElectron() ? <DesktopFacts refreshMs={REFRESH_MS} /> : null}
      <Loading loaded={status}>
        {(s) => (
          <section className="card" aria-label="Figures">
            <dl className="facts" id="server-status">
              <dt>URL</dt>
              <dd>
                <code>{s.url}</code>
              </dd>
              <dt>Running for</dt>
              <dd>
                {formatDuration(s.uptimeSeconds)}{' '}
                <span className="muted">(since {new Date(s.startedAt).toLocaleString()})</span>
              </dd>
              <dt>Version</dt>
              <dd>
                Hearth {s.version} <span className="muted">(Zulip API {s.zulipVersion})</span>
              </dd>
              <dt>Database</dt>
              <dd>{formatBytes(s.databaseBytes)}</dd>
              <dt>Users</dt>
              <dd>
                {s.active_humans} active, {s.deactivated_users} deactivated, {s.active_bots} bots
              </dd>
              <dt>Messages</dt>
              <dd>{s.messages}</dd>
              <dt>Channels</dt>
              <dd>
                {s.channels} <span className="muted">({s.archived_channels} archived)</span>
              </dd>
              <dt>Live event queues</dt>
              <dd>{s.eventQueues}</dd>
            </dl>
          </section>
        )}
      </Loading>
    </>
  );
}
