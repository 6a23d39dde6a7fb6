import { useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { insideElectron } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { formatBytes } from '../../labels.js';
import { BackupSettingsForm } from './BackupSettingsForm.js';
import { waitForRestart } from './restart.js';
import { BackupEstimate, SpaceNotices } from './SpaceNotices.js';

type Backup = Outputs['backup']['list']['backups'][number];
const POLL_MS = 300;

type Activity =
  | { kind: 'idle' }
  | { kind: 'backing-up'; fraction: number }
  | { kind: 'restoring'; file: string }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string };

/** Backups: now, daily, restore and remove; the folders on the desktop. */
export function BackupsPage() {
  const api = useApi();
  const [list, reload] = useLoad(() => api.backup.list.query());
  const [activity, setActivity] = useState<Activity>({ kind: 'idle' });
  const [dialog, confirm] = useConfirm();
  const busy = activity.kind === 'backing-up' || activity.kind === 'restoring';

  const backUpNow = async () => {
    setActivity({ kind: 'backing-up', fraction: 0 });
    try {
      const { id } = await api.backup.create.mutate();
      for (;;) {
        const progress = await api.backup.progress.query({ id });
        if (progress.state === 'failed') throw new Error(progress.error ?? 'The backup failed');
        setActivity({ kind: 'backing-up', fraction: progress.fraction });
        if (progress.state === 'done') {
          setActivity({ kind: 'done', message: `Backed up to ${progress.file ?? 'the folder'}.` });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } catch (err) {
      setActivity({ kind: 'failed', message: shownError(err).message });
    }
    reload();
  };

  const restore = async (backup: Backup) => {
    const when = new Date(backup.createdAt).toLocaleString();
    const ok = await confirm({
      title: 'Restore this backup?',
      body: `Everything since ${when} (messages, users, settings, files) is replaced by the backup. The server restarts; people connected reconnect.`,
      confirmLabel: 'Restore',
      danger: true,
    });
    if (!ok) return;
    setActivity({ kind: 'restoring', file: backup.file });
    try {
      await api.backup.restore.mutate({ file: backup.file });
      await waitForRestart(api);
      setActivity({ kind: 'done', message: `Restored the backup of ${when}.` });
    } catch (err) {
      setActivity({ kind: 'failed', message: shownError(err).message });
    }
    reload();
  };

  const remove = async (backup: Backup) => {
    const ok = await confirm({
      title: 'Remove this backup?',
      body: `The file ${backup.file} is deleted from the backup folder.`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    try {
      await api.backup.remove.mutate({ file: backup.file });
      setActivity({ kind: 'done', message: `Removed ${backup.file}.` });
    } catch (err) {
      setActivity({ kind: 'failed', message: shownError(err).message });
    }
    reload();
  };

  return (
    <>
      <PageTitle title="Backups">
        A backup holds the whole organization: messages, users, settings and uploaded files.
      </PageTitle>
      {list.state === 'ready' ? <SpaceNotices space={list.value.space} /> : null}
      <section className="card" aria-labelledby="backup-now-title">
        <h2 id="backup-now-title">Back up</h2>
        <div className="actions">
          <button
            type="button"
            className="button primary"
            id="backup-now"
            disabled={busy}
            onClick={() => void backUpNow()}
          >
            Back up now
          </button>
          {insideElectron() ? <FolderButtons /> : null}
        </div>
        <ActivityStatus activity={activity} />
      </section>
      <Loading loaded={list}>
        {({ backups, settings, space }) => (
          <>
            <section className="card" aria-labelledby="backup-list-title">
              <h2 id="backup-list-title">Backups in {settings.folder}</h2>
              <BackupEstimate space={space} />
              {backups.length === 0 ? (
                <p className="muted">No backups yet.</p>
              ) : (
                <ul className="member-list" id="backups">
                  {backups.map((b) => (
                    <li key={b.file}>
                      <span>
                        <strong>{new Date(b.createdAt).toLocaleString()}</strong>{' '}
                        <span className="muted">
                          {formatBytes(b.sizeBytes)}
                          {b.automatic ? ', automatic' : ''}
                          {b.includesFiles ? ', with files' : ''}
                        </span>
                      </span>
                      <span className="row-actions">
                        <button
                          type="button"
                          className="button small"
                          disabled={busy}
                          onClick={() => void restore(b)}
                        >
                          Restore<span className="visually-hidden"> {b.file}</span>
                        </button>
                        <button
                          type="button"
                          className="button small danger"
                          disabled={busy}
                          onClick={() => void remove(b)}
                        >
                          Remove<span className="visually-hidden"> {b.file}</span>
                        </button>
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <BackupSettingsForm settings={settings} onSaved={reload} />
          </>
        )}
      </Loading>
      {dialog}
    </>
  );
}

function ActivityStatus({ activity }: { activity: Activity }) {
  switch (activity.kind) {
    case 'backing-up':
      return (
        <div className="progress-row">
          <label htmlFor="backup-progress">Backing up…</label>
          <progress id="backup-progress" max={1} value={activity.fraction}>
            {Math.round(activity.fraction * 100)}%
          </progress>
        </div>
      );
    case 'restoring':
      return (
        <p className="alert" role="status" id="restore-status">
          Restoring; the server is restarting…
        </p>
      );
    case 'done':
      return (
        <p className="alert alert-success" role="status" id="backup-status">
          {activity.message}
        </p>
      );
    case 'failed':
      return (
        <p className="alert alert-error" role="alert" id="backup-status">
          {activity.message}
        </p>
      );
    default:
      return null;
  }
}

/** Only the desktop app can show a folder: a browser's server may be on another machine. */
function FolderButtons() {
  const api = useApi();
  const [error, setError] = useState<string | null>(null);
  const open = (folder: 'data' | 'backups') => {
    setError(null);
    api.desktop.openFolder.mutate({ folder }).catch((err: unknown) => {
      setError(shownError(err).message);
    });
  };
  return (
    <>
      <button type="button" className="button" onClick={() => open('backups')}>
        Open backup folder
      </button>
      <button type="button" className="button" onClick={() => open('data')}>
        Open data folder
      </button>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
