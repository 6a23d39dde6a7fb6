import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { AdminClient } from '../trpc/client.js';

export const ADMIN_TOKEN = 'backup-test-admin-token-0123456789';

export interface FinishedBackup {
  file: string;
  /** Every fraction polled, in order. */
  fractions: number[];
}

/** Polls backup.progress until the job ends; fails the test if it failed. */
export async function waitForBackup(admin: AdminClient, id: string): Promise<FinishedBackup> {
  const fractions: number[] = [];
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const progress = await admin.backup.progress.query({ id });
    fractions.push(progress.fraction);
    expect(progress.fraction).toBeGreaterThanOrEqual(0);
    expect(progress.fraction).toBeLessThanOrEqual(1);
    if (progress.state === 'failed') throw new Error(`backup failed: ${progress.error}`);
    if (progress.state === 'done') {
      expect(progress.file).toMatch(/^hearth-backup-.*\.sqlite$/);
      return { file: progress.file!, fractions };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('backup did not finish in time');
}

/** Opens a backup read-only for a test to look inside. */
export function openCopy(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

export function integrityOf(db: Database.Database): string[] {
  return (db.pragma('integrity_check') as { integrity_check: string }[]).map(
    (row) => row.integrity_check,
  );
}
