import type Database from 'better-sqlite3';

/**
 * Ids the export makes up. Users, channels, messages, DM groups, user
 * groups, emoji, fields and attachments keep Hearth's ids; Zulip's
 * recipients have no Hearth row, so they get ids from three disjoint
 * ranges (users first, then channels, then DM groups), and rows Hearth keys
 * by their columns (subscriptions, memberships) get a running number. The
 * importer renumbers everything anyway: these only have to be unique and
 * consistent, and the same for the same database.
 */
export class ExportIds {
  readonly userSpan: number;
  readonly streamSpan: number;
  private counters = new Map<string, number>();

  constructor(db: Database.Database) {
    const max = (table: string) =>
      (db.prepare(`SELECT coalesce(max(id), 0) AS m FROM ${table}`).get() as { m: number }).m;
    this.userSpan = max('users');
    this.streamSpan = max('streams');
  }

  personalRecipient = (userId: number) => userId;
  streamRecipient = (streamId: number) => this.userSpan + streamId;
  dmRecipient = (dmGroupId: number) => this.userSpan + this.streamSpan + dmGroupId;

  /** The next id of a table whose rows Hearth keys by their columns. */
  next(table: string): number {
    const value = (this.counters.get(table) ?? 0) + 1;
    this.counters.set(table, value);
    return value;
  }
}
