import { z } from 'zod';
import {
  backupProgress,
  createBackup,
  listBackups,
  removeBackup,
  restoreBackup,
  updateBackupSettings,
} from '../backup/index.js';
import { procedure, router } from './init.js';

/** A backup's bare file name in the backup folder (the area refuses anything else). */
const file = z.string().min(1).max(255);

export const backupRouter = router({
  /** The backups in the folder, newest first, and the automatic-backup settings. */
  list: procedure.query(({ ctx }) => listBackups(ctx.app, ctx.actor)),
  /** Starts a backup now; poll backup.progress with the id. */
  create: procedure.mutation(({ ctx }) => createBackup(ctx.app, ctx.actor)),
  progress: procedure
    .input(z.object({ id: z.string().min(1).max(64) }))
    .query(({ ctx, input }) => backupProgress(ctx.app, ctx.actor, input.id)),
  /** Any of the settings; answers them all. */
  updateSettings: procedure
    .input(
      z
        .object({
          enabled: z.boolean(),
          hour: z.number().int(),
          keep: z.number().int(),
          folder: z.string().max(4096),
        })
        .partial()
        .strict(),
    )
    .mutation(({ ctx, input }) => updateBackupSettings(ctx.app, ctx.actor, input)),
  /**
   * Checks the backup and stages it; the server then restarts on the
   * restored data (`restartRequired`: the UI reconnects and reloads).
   */
  restore: procedure
    .input(z.object({ file }))
    .mutation(({ ctx, input }) => restoreBackup(ctx.app, ctx.actor, input.file)),
  remove: procedure.input(z.object({ file })).mutation(async ({ ctx, input }) => {
    await removeBackup(ctx.app, ctx.actor, input.file);
    return {};
  }),
});
