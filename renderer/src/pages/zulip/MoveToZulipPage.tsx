import { useEffect, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';

type Overview = Outputs['zulip']['overview'];

const LOCK_COMMAND = `cd /home/zulip/deployments/current
./manage.py shell -c "from zerver.lib.export import do_common_export_processes; do_common_export_processes('/home/zulip/EXPORT')"`;
const IMPORT_COMMAND = `./scripts/stop-server
./manage.py import '' /home/zulip/EXPORT
./scripts/start-server`;

/** A command to copy, wrapped on narrow screens. */
function Command({ text }: { text: string }) {
  return (
    <div className="snippet">
      <pre>{text}</pre>
    </div>
  );
}
type ExportRow = Overview['exports'][number];
const POLL_MS = 500;

/**
 * Move to Zulip Server: a full export in Zulip's own format, its progress
 * and download, and the steps on the Zulip side (docs/moving-to-zulip.md).
 */
export function MoveToZulipPage() {
  const api = useApi();
  const [overview, reload] = useLoad(() => api.zulip.overview.query());
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [dialog, confirm] = useConfirm();
  const pending =
    overview.state === 'ready' && overview.value.exports.some((e: ExportRow) => e.pending);

  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [pending, reload]);

  const start = async () => {
    setMessage(null);
    try {
      await api.zulip.startExport.mutate();
    } catch (err) {
      setMessage({ kind: 'error', text: shownError(err).message });
    }
    reload();
  };

  const remove = async (row: ExportRow) => {
    const ok = await confirm({
      title: 'Remove this export?',
      body: 'Its file is deleted from the data folder; the organization is not touched.',
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    try {
      await api.zulip.remove.mutate({ id: row.id });
      setMessage({ kind: 'success', text: 'Removed the export.' });
    } catch (err) {
      setMessage({ kind: 'error', text: shownError(err).message });
    }
    reload();
  };

  return (
    <>
      <PageTitle title="Move to Zulip Server">
        When the team outgrows this machine, its whole history moves to Zulip Server in Zulip's own
        export format: people, channels, messages with their topics and edits, uploads, emoji,
        groups and settings.
      </PageTitle>
      <Loading loaded={overview}>
        {(o: Overview) => (
          <>
            <section className="card" aria-labelledby="zulip-export-title">
              <h2 id="zulip-export-title">Export for Zulip Server {o.zulipReleaseLine}</h2>
              <p>
                The server keeps running while the export is written from a snapshot of the
                database. Import it into a Zulip Server of the {o.zulipReleaseLine} line, then
                upgrade Zulip as usual.
              </p>
              <div className="actions">
                <button
                  type="button"
                  className="button primary"
                  id="zulip-export-start"
                  disabled={pending}
                  onClick={() => void start()}
                >
                  {pending ? 'Exporting…' : 'Export for Zulip Server'}
                </button>
              </div>
              {message ? (
                <p
                  className={`alert ${message.kind === 'error' ? 'alert-error' : 'alert-success'}`}
                  role={message.kind === 'error' ? 'alert' : 'status'}
                >
                  {message.text}
                </p>
              ) : null}
              {o.exports.length === 0 ? (
                <p className="muted">No exports yet.</p>
              ) : (
                <ul className="member-list" id="zulip-exports">
                  {o.exports.map((e: ExportRow) => (
                    <ExportItem key={e.id} row={e} onRemove={() => void remove(e)} />
                  ))}
                </ul>
              )}
            </section>
            <section className="card" aria-labelledby="zulip-runbook-title">
              <h2 id="zulip-runbook-title">On the Zulip server</h2>
              <ol className="steps" id="zulip-runbook">
                <li>
                  Install Zulip Server {o.zulipReleaseLine} without creating an organization, copy
                  the export's <code>.tar.gz</code> to it and unpack it as the <code>zulip</code>{' '}
                  user.
                </li>
                <li>
                  Generate the migration lock there with Zulip's own function (the one command):
                  <Command text={LOCK_COMMAND} />
                </li>
                <li>
                  Stop Zulip, import, start it:
                  <Command text={IMPORT_COMMAND} />
                </li>
                <li>
                  Settle: give the owner a password (<code>./manage.py change_password</code>), set
                  the organization's name again, and let people set their passwords.
                </li>
                <li>Upgrade Zulip to the release you want with its usual upgrade.</li>
              </ol>
              <p className="muted">
                The full runbook is docs/moving-to-zulip.md in Hearth's source. Export format:
                profile {o.profile}.
              </p>
            </section>
            <section className="card" aria-labelledby="zulip-left-title">
              <h2 id="zulip-left-title">What does not travel</h2>
              <ul id="zulip-not-transferred" style={{ overflowWrap: 'anywhere' }}>
                {o.notTransferred.map((item: string) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </section>
          </>
        )}
      </Loading>
      {dialog}
    </>
  );
}

function ExportItem({ row, onRemove }: { row: ExportRow; onRemove(): void }) {
  const when = new Date(row.export_time * 1000).toLocaleString();
  return (
    <li>
      <span>
        <strong>{when}</strong>{' '}
        {row.pending ? (
          <span className="progress-row">
            <label htmlFor={`zulip-export-${row.id}`}>
              {row.phase ?? 'starting'} {Math.round((row.fraction ?? 0) * 100)}%
            </label>
            <progress id={`zulip-export-${row.id}`} max={1} value={row.fraction ?? 0} />
          </span>
        ) : row.failed_timestamp !== null ? (
          <span className="muted">failed: {row.failureReason ?? 'unknown reason'}</span>
        ) : (
          <span className="muted">ready</span>
        )}
      </span>
      <span className="row-actions">
        {row.export_url ? (
          <a className="button small" href={row.export_url} download>
            Download<span className="visually-hidden"> the export of {when}</span>
          </a>
        ) : null}
        {!row.pending ? (
          <button type="button" className="button small danger" onClick={onRemove}>
            Remove<span className="visually-hidden"> the export of {when}</span>
          </button>
        ) : null}
      </span>
    </li>
  );
}
