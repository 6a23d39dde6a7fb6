import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest, notFound } from '../core/errors.js';
import { activeAdminIds } from '../db/queries/bots.js';
import {
  countExportsRequestedSince,
  failUnfinishedExports,
  insertRealmExport,
  markExportDeleted,
  markExportFailed,
  markExportStarted,
  markExportSucceeded,
  type RealmExportRow,
  RealmExportStatus,
  realmExportById,
  realmExportRows,
} from '../db/queries/realm-exports.js';
import { allUsers, type UserRow } from '../db/queries/users.js';
import { FileAnswer } from '../shared/files.js';
import { loadRealm, realmUrl } from '../shared/realm.js';
import { Role, requireRole } from '../shared/roles.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import type { EventBody, RealmExport } from '../shared/zulip-api/index.js';
import { checkExportContract } from './contract.js';
import type { ExportProgress } from './export/write-export.js';
import { writeZulipExport } from './export/write-export.js';
import { DEFAULT_PROFILE, profileNamed } from './profiles/index.js';

/**
 * Zulip's RealmExport types. POST /export/realm accepts the first two, as
 * Zulip's does; the third (everything, what moving to Zulip Server needs)
 * is for owners through the admin page and the command line.
 */
export const ExportType = { public: 1, fullWithConsent: 2, full: 3 } as const;
const scopeOf = (type: number) =>
  type === ExportType.public ? 'public' : type === ExportType.fullWithConsent ? 'consent' : 'full';
/** Zulip's limit: five export requests a week (views/realm_export.py, EXPORT_LIMIT). */
const EXPORT_LIMIT = 5;
const WEEK_SECONDS = 7 * 86_400;
/** Where exports are written, under the data directory. */
export const EXPORTS_DIR = 'exports';

const seconds = (ctx: AppContext) => ctx.now() / 1000;
const exportFolder = (ctx: AppContext, row: Pick<RealmExportRow, 'id' | 'token'>) =>
  path.join(ctx.config.dataDir, EXPORTS_DIR, `${row.id}-${row.token}`);

/** Progress of exports running in this process, for the admin page. */
const running = new WeakMap<AppContext, Map<number, ExportProgress>>();
const progressOf = (ctx: AppContext) => {
  let map = running.get(ctx);
  if (!map) {
    map = new Map();
    running.set(ctx, map);
  }
  return map;
};

/** Zulip's get_realm_exports_serialized. */
function serialize(ctx: AppContext, row: RealmExportRow): RealmExport {
  return {
    id: row.id,
    export_time: row.date_requested,
    acting_user_id: row.acting_user_id,
    export_url:
      row.status === RealmExportStatus.succeeded && row.file_name
        ? `${realmUrl(ctx)}/exports/realm/${row.id}-${row.token}/${row.file_name}`
        : null,
    deleted_timestamp: row.date_deleted,
    failed_timestamp: row.date_failed,
    pending: row.status === RealmExportStatus.requested || row.status === RealmExportStatus.started,
    export_type: row.export_type,
  };
}

export const realmExportList = (ctx: AppContext) =>
  realmExportRows(ctx.db).map((r) => serialize(ctx, r));

/** Zulip's notify_realm_export: every administrator's clients get the whole list. */
function emitRealmExport(ctx: AppContext, tx: Tx): void {
  tx.emit({
    type: 'realm_export',
    users: activeAdminIds(ctx.db),
    payload: {
      type: 'realm_export',
      exports: realmExportList(ctx),
    } satisfies EventBody<'realm_export'>,
  });
}

/** The support address Zulip names in its refusals: here, the person who runs the server. */
function supportAddress(ctx: AppContext): string {
  const owner = allUsers(ctx.db).find(
    (u) => u.role === Role.owner && u.is_active === 1 && u.is_bot === 0,
  );
  return owner?.delivery_email ?? `hearth@${loadRealm(ctx).row.email_domain}`;
}

const activeOwners = (ctx: AppContext) =>
  allUsers(ctx.db).filter((u) => u.role === Role.owner && u.is_active === 1 && u.is_bot === 0);

/** GET /export/realm */
export function getRealmExports(ctx: AppContext, actor: UserRow) {
  requireRole(actor, 'admin');
  return { exports: realmExportList(ctx) };
}

/** GET /export/realm/consents (feature level 430 adds each person's email visibility). */
export function getExportConsents(ctx: AppContext, actor: UserRow) {
  requireRole(actor, 'admin');
  return {
    export_consents: allUsers(ctx.db)
      .filter((u) => u.is_active === 1 && u.is_bot === 0)
      .map((u) => {
        const settings = mergeUserSettings(u.settings);
        return {
          user_id: u.id,
          consented: settings.allow_private_data_export,
          email_address_visibility: settings.email_address_visibility,
        };
      }),
  };
}

/**
 * POST /export/realm (Zulip's export_realm): checks, records the request
 * and starts writing the export in the background; the realm_export events
 * tell administrators when it is done. The file is the same .tar.gz the
 * command line writes, as Zulip's public or with-consent export type.
 */
export function requestRealmExport(ctx: AppContext, actor: UserRow, exportType: number) {
  requireRole(actor, 'admin');
  if (exportType !== ExportType.public && exportType !== ExportType.fullWithConsent) {
    throw new ApiError('Invalid export_type', { extra: { var_name: 'export_type' } });
  }
  const now = seconds(ctx);
  if (countExportsRequestedSince(ctx.db, now - WEEK_SECONDS) >= EXPORT_LIMIT) {
    throw badRequest('Exceeded rate limit.');
  }
  const owners = activeOwners(ctx);
  if (
    exportType === ExportType.fullWithConsent &&
    !owners.some((o) => mergeUserSettings(o.settings).allow_private_data_export)
  ) {
    throw badRequest(
      `Make sure at least one Organization Owner is consenting to the export or contact ${supportAddress(ctx)} for help.`,
    );
  }
  // Zulip's check_public_export_is_usable: an owner whose address administrators may see.
  if (
    exportType === ExportType.public &&
    !owners.some((o) => mergeUserSettings(o.settings).email_address_visibility !== 4)
  ) {
    throw badRequest(
      `Make sure at least one Organization Owner allows other Administrators to see their email address or contact ${supportAddress(ctx)} for help`,
    );
  }
  return { id: startExport(ctx, actor, exportType) };
}

/** The admin page's "Export for Zulip Server": everything (owners only), as the command line writes it. */
export function requestFullExport(ctx: AppContext, actor: UserRow) {
  requireRole(actor, 'owner');
  return { id: startExport(ctx, actor, ExportType.full) };
}

function startExport(ctx: AppContext, actor: UserRow, exportType: number): number {
  const id = ctx.transaction((tx) => {
    const created = insertRealmExport(ctx.db, {
      acting_user_id: actor.id,
      export_type: exportType,
      date_requested: seconds(ctx),
      token: randomBytes(16).toString('hex'),
    });
    emitRealmExport(ctx, tx);
    return created;
  });
  // After the commit: the export reads its own snapshot of the database.
  setImmediate(() => void runExport(ctx, id));
  return id;
}

async function runExport(ctx: AppContext, id: number): Promise<void> {
  const row = realmExportById(ctx.db, id);
  if (!row) return;
  const progress = progressOf(ctx);
  try {
    ctx.transaction((tx) => {
      markExportStarted(ctx.db, id, seconds(ctx));
      emitRealmExport(ctx, tx);
    });
    const folder = exportFolder(ctx, row);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const fileName = `zulip-export-${id}.tar.gz`;
    const profile = profileNamed(DEFAULT_PROFILE);
    await writeZulipExport({
      databaseFile: ctx.db.name,
      filesDir: ctx.config.filesDir,
      out: path.join(folder, fileName),
      profile,
      scope: scopeOf(row.export_type),
      now: ctx.now,
      verify: (dir) => checkExportContract(dir, profile, { writtenByHearth: true }),
      onProgress: (p) => progress.set(id, p),
    });
    ctx.transaction((tx) => {
      markExportSucceeded(ctx.db, id, seconds(ctx), fileName);
      emitRealmExport(ctx, tx);
    });
  } catch (err) {
    ctx.log.error(`data export ${id} failed`, err);
    try {
      ctx.transaction((tx) => {
        markExportFailed(
          ctx.db,
          id,
          seconds(ctx),
          err instanceof Error ? err.message : String(err),
        );
        emitRealmExport(ctx, tx);
      });
    } catch {
      // The server closed while the export ran; failUnfinishedRealmExports marks it next start.
    }
  } finally {
    progress.delete(id);
  }
}

/** DELETE /export/realm/{export_id} */
export async function deleteRealmExport(ctx: AppContext, actor: UserRow, exportId: number) {
  requireRole(actor, 'admin');
  const row = realmExportById(ctx.db, exportId);
  if (!row) throw badRequest('Invalid data export ID');
  if (row.status === RealmExportStatus.deleted) throw badRequest('Export already deleted');
  if (row.status === RealmExportStatus.failed) throw badRequest('Export failed, nothing to delete');
  if (row.status !== RealmExportStatus.succeeded) throw badRequest('Export still in progress');
  await rm(exportFolder(ctx, row), { recursive: true, force: true });
  ctx.transaction((tx) => {
    markExportDeleted(ctx.db, exportId, seconds(ctx));
    emitRealmExport(ctx, tx);
  });
  return {};
}

/** GET /exports/realm/{id-token}/{file}: the download, found only by its unguessable URL. */
export function serveRealmExport(ctx: AppContext, folder: string, fileName: string): FileAnswer {
  const match = /^(\d+)-([0-9a-f]{32})$/.exec(folder);
  const row = match ? realmExportById(ctx.db, Number(match[1])) : undefined;
  if (
    !row ||
    row.token !== match![2] ||
    row.status !== RealmExportStatus.succeeded ||
    row.file_name !== fileName
  ) {
    throw notFound();
  }
  const file = path.join(exportFolder(ctx, row), fileName);
  if (!existsSync(file)) throw notFound();
  return new FileAnswer({
    body: { path: file },
    contentType: 'application/gzip',
    disposition: { type: 'attachment', fileName },
    cacheControl: 'private, no-store',
  });
}

/** Progress of the exports this server is writing (the admin page polls it). */
export function realmExportProgress(ctx: AppContext): Record<number, ExportProgress> {
  return Object.fromEntries(progressOf(ctx));
}

/** At start: an export that was running when the server stopped has failed. */
export function failUnfinishedRealmExports(ctx: AppContext): void {
  failUnfinishedExports(ctx.db, seconds(ctx));
}

/** The admin page "Move to Zulip Server": the target release, what stays behind, the exports. */
export function zulipMoveOverview(ctx: AppContext, actor: UserRow) {
  requireRole(actor, 'admin');
  const profile = profileNamed(DEFAULT_PROFILE);
  const progress = progressOf(ctx);
  return {
    profile: profile.profile,
    zulipReleaseLine: profile.zulip_release_line,
    profileSource: profile.source.revision,
    notTransferred: [...profile.not_transferred],
    exports: realmExportRows(ctx.db)
      .filter((r) => r.status !== RealmExportStatus.deleted)
      .reverse()
      .map((r) => ({
        ...serialize(ctx, r),
        fraction: progress.get(r.id)?.fraction ?? null,
        phase: progress.get(r.id)?.phase ?? null,
        failureReason: r.failure_reason,
      })),
  };
}
