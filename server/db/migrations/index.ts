import type Database from 'better-sqlite3';
import { initialSchema } from './0001-initial-schema.js';
import { presenceUpdateId } from './0002-presence-update-id.js';
import { reminderNote } from './0003-reminder-note.js';
import { clientDevices } from './0004-client-devices.js';
import { savedSnippets } from './0005-saved-snippets.js';
import { uploadFiles } from './0006-upload-files.js';
import { unreadOverrideCounts } from './0007-unread-override-counts.js';
import { searchIndexes } from './0008-search-indexes.js';
import { repairShippedEdits } from './0009-repair-shipped-edits.js';
import { invitations } from './0010-invitations.js';
import { channelFolders } from './0011-channel-folders.js';
import { navigationViews } from './0012-navigation-views.js';
import { realmUserSettingsDefaults } from './0013-realm-user-settings-defaults.js';
import { browserSessions } from './0014-browser-sessions.js';
import { realmExports } from './0015-realm-exports.js';
import { autoincrementIds } from './0016-autoincrement-ids.js';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
  /**
   * Rebuilds tables: the runner turns foreign-key enforcement off for the
   * run (dropping a parent table would otherwise delete or cascade into its
   * children) and checks every foreign key before it commits.
   */
  foreignKeysOff?: boolean;
}

/** Ordered; versions are consecutive and never reused. */
export const migrations: Migration[] = [
  initialSchema,
  presenceUpdateId,
  reminderNote,
  clientDevices,
  savedSnippets,
  uploadFiles,
  unreadOverrideCounts,
  searchIndexes,
  repairShippedEdits,
  invitations,
  channelFolders,
  navigationViews,
  realmUserSettingsDefaults,
  browserSessions,
  realmExports,
  autoincrementIds,
];
