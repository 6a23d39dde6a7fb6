import type { AppContext } from '../core/context.js';
import { channelMessageCountFrom, firstMessageIdSince } from '../db/queries/stream-traffic.js';
import type { StreamRow } from '../db/queries/streams.js';

const DAY = 86_400;

/**
 * Zulip's get_average_weekly_stream_traffic over the last 28 days: null for
 * channels younger than a week, and at least 1 when there was any message.
 * The returned function computes lazily and shares the date lookup.
 */
export function weeklyTraffic(ctx: AppContext): (stream: StreamRow) => number | null {
  const now = Math.floor(ctx.now() / 1000);
  let firstId: number | null | undefined;
  return (stream) => {
    const ageDays = Math.floor((now - stream.date_created) / DAY);
    if (ageDays < 7) return null;
    if (firstId === undefined) firstId = firstMessageIdSince(ctx.db, now - 28 * DAY);
    const recent = firstId === null ? 0 : channelMessageCountFrom(ctx.db, stream.id, firstId);
    const average = ageDays >= 28 ? Math.floor(recent / 4) : Math.floor((recent * 7) / ageDays);
    return average === 0 && recent > 0 ? 1 : average;
  };
}
