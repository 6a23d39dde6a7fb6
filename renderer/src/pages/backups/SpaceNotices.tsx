import type { Outputs } from '../../api/client.js';
import { formatBytes } from '../../labels.js';

type Space = Outputs['backup']['list']['space'];
type Disk = NonNullable<Space['data']>;

const freeOf = (disk: Disk) =>
  `${formatBytes(disk.freeBytes)} free of ${formatBytes(disk.totalBytes)}`;
const sameDisk = (a: Disk, b: Disk) => a.device === b.device;

/**
 * What the owner must act on before a disk fills: the data disk running
 * low (the server warns below 1 GiB and sends fail near the end of it), the
 * backup folder's disk, and automatic backups paused for want of room.
 */
export function SpaceNotices({ space }: { space: Space }) {
  const { data, backups, automaticPaused } = space;
  const backupDiskLow =
    backups !== null && backups.level !== 'ok' && (data === null || !sameDisk(data, backups));
  return (
    <>
      {data !== null && data.level !== 'ok' ? (
        <p
          className={`alert ${data.level === 'critical' ? 'alert-error' : 'alert-warning'}`}
          role="alert"
          id="disk-space-warning"
        >
          {data.level === 'critical'
            ? `The disk holding Hearth's data is full: ${freeOf(data)}. Sends and uploads may fail; free some space now.`
            : `The disk holding Hearth's data is nearly full: ${freeOf(data)}. Free some space, or keep backups on another disk.`}
        </p>
      ) : null}
      {backupDiskLow ? (
        <p className="alert alert-warning" role="alert" id="backup-disk-warning">
          The disk holding the backup folder is nearly full: {freeOf(backups)}.
        </p>
      ) : null}
      {automaticPaused !== null ? (
        <p className="alert alert-error" role="alert" id="backups-paused">
          Automatic backups are paused since {new Date(automaticPaused.since).toLocaleString()}.{' '}
          {automaticPaused.reason}
        </p>
      ) : null}
    </>
  );
}

/** "A backup now takes about 12.0 MiB; 40.2 GiB free there." */
export function BackupEstimate({ space }: { space: Space }) {
  return (
    <p className="muted" id="backup-estimate">
      A backup now takes about {formatBytes(space.estimatedBackupBytes)}
      {space.backups !== null ? `; ${formatBytes(space.backups.freeBytes)} free there.` : '.'}
    </p>
  );
}
