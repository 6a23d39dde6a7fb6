import { useEffect } from 'react';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { Loading } from '../../components/Loading.js';

const STATE_LABELS = {
  starting: 'Starting',
  running: 'Running',
  restarting: 'Restarting after a crash',
  stopped: 'Stopped',
} as const;

/** The desktop app's view of its server: state, restarts, and a port other than the usual one. */
export function DesktopFacts({ refreshMs }: { refreshMs: number }) {
  const api = useApi();
  const [status, reload] = useLoad(() => api.desktop.status.query());
  useEffect(() => {
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [reload, refreshMs]);
  return (
    <Loading loaded={status}>
      {(s) => (
        <section className="card" aria-labelledby="desktop-title">
          <h2 id="desktop-title">Desktop app</h2>
          {s.portFallback ? (
            <p className="alert alert-error" role="note" id="port-fallback">
              Port {s.preferredPort} was taken, so the server listens on port {s.port}. Clients that
              saved the usual address must use <code>{s.url}</code> until it is free again.
            </p>
          ) : null}
          <dl className="facts" id="desktop-status">
            <dt>State</dt>
            <dd>{STATE_LABELS[s.state]}</dd>
            <dt>Listening on</dt>
            <dd>
              <code>{s.host ?? '—'}</code>, port {s.port ?? '—'}
            </dd>
            <dt>Data folder</dt>
            <dd>
              <code>{s.dataDir}</code>
            </dd>
            <dt>Restarts after a crash</dt>
            <dd>{s.restarts}</dd>
            {s.lastError ? (
              <>
                <dt>Last problem</dt>
                <dd>{s.lastError}</dd>
              </>
            ) : null}
          </dl>
        </section>
      )}
    </Loading>
  );
}
