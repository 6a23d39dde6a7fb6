import type { Db } from '../db/open.js';
import {
  channelWatermarks,
  dmWatermarks,
  flagRows,
  subscriptionPeriods,
} from '../db/queries/flags.js';
import type { MessageRow } from '../db/queries/messages.js';
import { defaultFlags, Flag } from '../shared/flags.js';

/**
 * Computes one user's flags for messages from watermarks, subscription
 * periods and sparse override rows (db/DESIGN.md). Load once per request.
 */
export class FlagReader {
  private readonly channels: ReturnType<typeof channelWatermarks>;
  private readonly dms: Map<number, number>;
  private readonly periods: Map<number, Array<[number, number | null]>>;
  private rows = new Map<number, number>();

  constructor(
    private readonly db: Db,
    readonly userId: number,
  ) {
    this.channels = channelWatermarks(db, userId);
    this.dms = dmWatermarks(db, userId);
    this.periods = subscriptionPeriods(db, userId);
  }

  /** Loads the override rows for these messages (call before flagsOf on them). */
  load(messageIds: readonly number[]): this {
    this.rows = flagRows(this.db, this.userId, messageIds);
    return this;
  }

  /** Did the user receive the message (Zulip: has a UserMessage row)? */
  received(message: Pick<MessageRow, 'id' | 'stream_id' | 'dm_group_id'>): boolean {
    if (message.dm_group_id !== null) return this.dms.has(message.dm_group_id);
    const periods = this.periods.get(message.stream_id!) ?? [];
    return periods.some(
      ([first, last]) => message.id >= first && (last === null || message.id <= last),
    );
  }

  flagsOf(message: Pick<MessageRow, 'id' | 'stream_id' | 'dm_group_id' | 'sender_id'>): number {
    const row = this.rows.get(message.id);
    if (row !== undefined) return row;
    if (!this.received(message)) return Flag.read | Flag.historical;
    const readThrough =
      message.dm_group_id !== null
        ? (this.dms.get(message.dm_group_id) ?? 0)
        : (this.channels.get(message.stream_id!)?.readThrough ?? 0);
    return defaultFlags(message.id, message.sender_id, this.userId, readThrough);
  }

  isSubscribed(streamId: number): boolean {
    return this.channels.get(streamId)?.active ?? false;
  }
}
