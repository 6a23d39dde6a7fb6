/**
 * Moving an organization between Hearth and Zulip Server: Zulip's native
 * export written from Hearth's database (export/), a Zulip export read into
 * an empty data directory (import/), each pinned to a Zulip release line by
 * a profile (profiles/), and the contract check both rely on.
 */
export { checkExportContract } from './contract.js';
export { isDjangoValidEmail } from './email.js';
export type { ExportScope } from './export/organization.js';
export {
  type ExportProgress,
  ExportRefused,
  type ExportSummary,
  isTarballPath,
  writeZulipExport,
} from './export/write-export.js';
export {
  type ImportOptions,
  type ImportSummary,
  importZulipExport,
  prepareZulipImport,
} from './import/import-zulip.js';
export { ImportRefused, SUPPORTED_ZULIP_MAJORS } from './import/source.js';
export { DEFAULT_PROFILE, type ExportProfile, profileNamed, profiles } from './profiles/index.js';
export {
  deleteRealmExport,
  ExportType,
  failUnfinishedRealmExports,
  getExportConsents,
  getRealmExports,
  realmExportProgress,
  requestFullExport,
  requestRealmExport,
  serveRealmExport,
  zulipMoveOverview,
} from './realm-exports.js';
export { SettleFailed, type SettleReport, settleOnZulip } from './settle.js';
export { importIntoNewOrganization } from './wizard-import.js';
