import type { AppContext } from '../core/context.js';
import type { Db } from '../db/open.js';
import { channelMessageCountFrom, firstMessageIdSince } from '../db/queries/stream-traffic.js';
import type { StreamRow } from '../db/queries/streams.js';

const DAY = 86_400;

type Traffic = (stream: StreamRow) => number | null;

/** The traffic function of a sharingWeeklyTraffic scope in progress, per database. */
const shared = new Map<Db, Traffic>();

/**
 * Zulip's get_average_weekly_stream_traffic over the last 28 days: null for
 * channels younger than a week, and at least 1 when there was any message.
 * The returned function computes lazily and shares the date lookup.
 */
export function weeklyTraffic(ctx: AppContext): Traffic {
  return shared.get(ctx.db) ?? computeWeeklyTraffic(ctx);
}

function computeWeeklyTraffic(ctx: AppContext): Traffic {
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

/**
 * Runs `read`, which must be synchronous and write nothing, with one traffic
 * figure per channel however many of its lists show the channel: register's
 * subscriptions and streams would otherwise count every channel's messages
 * twice. Nothing is written meanwhile, so the shared figures stay exact.
 */
export function sharingWeeklyTraffic<T>(ctx: AppContext, read: () => T): T {
  if (shared.has(ctx.db)) return read();
  const traffic = computeWeeklyTraffic(ctx);
  const known = new Map<number, number | null>();
  shared.set(ctx.db, (stream) => {
    if (!known.has(stream.id)) known.set(stream.id, traffic(stream));
    return known.get(stream.id)!;
  });
  try {
    return read();
  } finally {
    shared.delete(ctx.db);
  }
}
