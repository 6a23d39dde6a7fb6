import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { Loading } from '../../components/Loading.js';

const OUTCOMES: Record<string, string> = {
  accepted: 'Posted',
  ignored: 'Nothing to post',
  unsupported: 'Unsupported event',
  error: 'Error',
};

/** A bot's last deliveries, newest first, with a button to look again. */
export function DeliveryLog({ botId, botName }: { botId: number; botName: string }) {
  const api = useApi();
  const [log, reload] = useLoad(() => api.integrations.deliveries.query({ botId }), [botId]);
  return (
    <section className="card" id={`deliveries-${botId}`} aria-label={`Deliveries to ${botName}`}>
      <div className="card-head">
        <h2>Last deliveries to {botName}</h2>
        <button type="button" className="button small" onClick={reload}>
          Refresh
        </button>
      </div>
      <Loading loaded={log}>
        {(entries) =>
          entries.length === 0 ? (
            <p className="muted">
              Nothing yet since the server started. Use the tool’s “test” button, or wait for an
              event.
            </p>
          ) : (
            <table className="table stack deliveries">
              <caption className="visually-hidden">Last deliveries to {botName}</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Event</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((d) => (
                  <tr key={`${d.at}-${d.detail}`}>
                    <th scope="row" data-label="When">
                      {new Date(d.at).toLocaleString()}
                    </th>
                    <td data-label="Tool">{d.integration}</td>
                    <td data-label="Event">{d.eventType ?? '—'}</td>
                    <td data-label="Outcome">
                      <span className={`outcome outcome-${d.outcome}`}>
                        {OUTCOMES[d.outcome] ?? d.outcome}
                      </span>
                      {d.status !== 200 ? <span className="muted"> (HTTP {d.status})</span> : null}
                    </td>
                    <td data-label="Details" className="wrap">
                      {d.detail}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loading>
    </section>
  );
}
