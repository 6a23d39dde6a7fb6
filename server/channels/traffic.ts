import type { AppContext } from '../core/context.js';
import type { Db } from '../db/open.js';
import {
  channelMessageCountsBetween,
  firstMessageIdSince,
  newestMessageId,
} from '../db/queries/stream-traffic.js';
import type { StreamRow } from '../db/queries/streams.js';
import { tableVersion } from '../db/write-versions.js';

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
  let counts: ReadonlyMap<number, number> | undefined;
  return (stream) => {
    const ageDays = Math.floor((now - stream.date_created) / DAY);
    if (ageDays < 7) return null;
    counts ??= recentCounts(ctx.db, firstMessageIdSince(ctx.db, now - 28 * DAY));
    const recent = counts.get(stream.id) ?? 0;
    const average = ageDays >= 28 ? Math.floor(recent / 4) : Math.floor((recent * 7) / ageDays);
    return average === 0 && recent > 0 ? 1 : average;
  };
}

/** Every channel's messages from `firstId` to `lastId`, and what they were counted against. */
interface KeptCounts {
  /** messages' write version: deletions and moves, which the ids cannot tell. */
  version: number;
  firstId: number;
  lastId: number;
  counts: Map<number, number>;
}

const keptCounts = new WeakMap<Db, KeptCounts>();

/**
 * Messages per channel from `firstId` on. Counting every channel's last four
 * weeks for every register grows with the traffic, so the counts are kept
 * and moved along: new messages (ids only grow) are added, those that fell
 * out of the window subtracted. A deletion or a move (the messages write
 * version) means counting afresh.
 */
function recentCounts(db: Db, firstId: number | null): ReadonlyMap<number, number> {
  const lastId = newestMessageId(db);
  if (firstId === null || lastId === null) return new Map();
  const version = tableVersion(db, 'messages');
  const kept = keptCounts.get(db);
  let counts: Map<number, number>;
  if (kept && kept.version === version && firstId >= kept.firstId && lastId >= kept.lastId) {
    counts = new Map(kept.counts);
    const add = (from: number, to: number, sign: number) => {
      if (from > to) return;
      for (const row of channelMessageCountsBetween(db, from, to)) {
        counts.set(row.stream_id, (counts.get(row.stream_id) ?? 0) + sign * row.n);
      }
    };
    add(kept.lastId + 1, lastId, 1);
    add(kept.firstId, firstId - 1, -1);
  } else {
    counts = new Map(
      channelMessageCountsBetween(db, firstId, lastId).map((r) => [r.stream_id, r.n]),
    );
  }
  // Rows read in an open transaction could still be rolled back; NaN: writes untracked.
  if (!db.inTransaction && !Number.isNaN(version))
    keptCounts.set(db, { version, firstId, lastId, counts });
  return counts;
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
