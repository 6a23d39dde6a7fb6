import { stat, statfs } from 'node:fs/promises';
import path from 'node:path';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/**
 * Free space below which the owner is warned (`low`) and below which the
 * server is about to fail writes (`critical`). Absolute, not a share of the
 * disk: 5 % is 1.6 GB of a 32 GB card and 100 GB of a 2 TB disk.
 *
 * - critical, 256 MiB: what the server itself may need at any moment: the
 *   WAL grows by up to 16 MiB between checkpoints (more while a backup
 *   reads), the log keeps up to 60 MiB, an upload is up to 25 MiB and makes
 *   its thumbnails beside it. Backups never take this last part.
 * - low, 1 GiB: that again several times over, days of a busy team's
 *   uploads: time for the owner to free space or move backups elsewhere.
 */
export interface SpaceThresholds {
  lowBytes: number;
  criticalBytes: number;
}

export const DEFAULT_SPACE_THRESHOLDS: SpaceThresholds = {
  lowBytes: 1024 * MIB,
  criticalBytes: 256 * MIB,
};

export type SpaceLevel = 'ok' | 'low' | 'critical';

export interface DiskSpace {
  /** The folder asked about (it may not exist yet: its disk is the nearest existing parent's). */
  path: string;
  freeBytes: number;
  totalBytes: number;
  level: SpaceLevel;
  /** Which disk (the device number): two folders on one disk share its space. */
  device: number;
}

export function spaceLevel(freeBytes: number, thresholds: SpaceThresholds): SpaceLevel {
  if (freeBytes < thresholds.criticalBytes) return 'critical';
  if (freeBytes < thresholds.lowBytes) return 'low';
  return 'ok';
}

/**
 * The free space of the disk holding `folder`, as this process may use it
 * (bavail: without the blocks reserved for root). Null when it cannot be
 * told (an unplugged drive, a platform without statfs).
 */
export async function diskSpace(
  folder: string,
  thresholds: SpaceThresholds,
): Promise<DiskSpace | null> {
  let probe = path.resolve(folder);
  for (;;) {
    try {
      const [stats, { dev }] = await Promise.all([statfs(probe), stat(probe)]);
      const freeBytes = stats.bavail * stats.bsize;
      return {
        path: folder,
        freeBytes,
        totalBytes: stats.blocks * stats.bsize,
        level: spaceLevel(freeBytes, thresholds),
        device: dev,
      };
    } catch (err) {
      const parent = path.dirname(probe);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === probe) return null;
      probe = parent;
    }
  }
}

/** A size for log lines and messages: "0.3 MiB", "512 MiB", "70.3 GiB" (the admin UI formats its own). */
export function sizeText(bytes: number): string {
  if (bytes >= GIB) return `${(bytes / GIB).toFixed(1)} GiB`;
  return `${(bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0)} MiB`;
}
