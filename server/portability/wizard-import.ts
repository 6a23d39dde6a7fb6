import path from 'node:path';
import { backupsOf } from '../backup/index.js';
import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { organizationExists } from '../realm/index.js';
import { isStrongPassword } from '../users/index.js';
import { prepareZulipImport } from './import/import-zulip.js';
import { ImportRefused } from './import/source.js';
import { DEFAULT_PROFILE, profileNamed } from './profiles/index.js';

/**
 * The desktop's first-run wizard, "Import from Zulip": a running server
 * with no organization yet builds the imported one beside its data and
 * swaps it in at a restart (as a restore is swapped in), with the password
 * the person at the keyboard chose for the export's owner account.
 */
export async function importIntoNewOrganization(
  ctx: AppContext,
  input: { source: string; ownerPassword: string },
) {
  if (organizationExists(ctx)) throw badRequest('The organization has already been set up');
  // The one password rule (users/passwords.ts), as the wizard's "Create" applies it.
  if (!(await isStrongPassword(input.ownerPassword, []))) {
    throw new ApiError('The password is too weak.', { extra: { var_name: 'password' } });
  }
  if (input.source.trim() === '') {
    throw new ApiError('Give the path of a Zulip export', { extra: { var_name: 'source' } });
  }
  let prepared: Awaited<ReturnType<typeof prepareZulipImport>>;
  try {
    prepared = await prepareZulipImport({
      dataDir: ctx.config.dataDir,
      // The layout the running server uses: its database file and files folder.
      databaseName: path.basename(ctx.db.name),
      filesName: path.basename(ctx.config.filesDir),
      source: path.resolve(input.source.trim()),
      profile: profileNamed(DEFAULT_PROFILE),
      now: ctx.now,
      ownerPassword: input.ownerPassword,
    });
  } catch (err) {
    if (err instanceof ImportRefused) {
      throw new ApiError(err.message, { extra: { var_name: 'source' } });
    }
    throw err;
  }
  try {
    await backupsOf(ctx).swapInPrepared({
      databaseFile: prepared.databaseFile,
      filesDir: prepared.filesDir,
      source: path.basename(input.source),
    });
  } finally {
    await prepared.cleanup();
  }
  return { ...prepared.summary, restartRequired: true };
}
