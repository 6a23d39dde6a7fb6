import type { Db } from '../db/open.js';
import { subscriberIds } from '../db/queries/streams.js';
import { tableVersion } from '../db/write-versions.js';

/**
 * Each channel's active subscribers, kept until the subscriptions or users
 * table is written (db/write-versions.ts; a rollback counts as a write).
 * Every channel send needs the list, and reading a 1,000-subscriber channel
 * was an eighth of a send's CPU. Sends run inside the group commit's
 * transaction, which is why entries built there are kept too.
 */
interface SubscriberCache {
  subscriptionsVersion: number;
  usersVersion: number;
  byStream: Map<number, readonly number[]>;
}

const caches = new WeakMap<Db, SubscriberCache>();

export function channelRecipients(db: Db, streamId: number): readonly number[] {
  const subscriptionsVersion = tableVersion(db, 'subscriptions');
  const usersVersion = tableVersion(db, 'users');
  let cache = caches.get(db);
  if (
    !cache ||
    cache.subscriptionsVersion !== subscriptionsVersion ||
    cache.usersVersion !== usersVersion
  ) {
    cache = { subscriptionsVersion, usersVersion, byStream: new Map() };
    caches.set(db, cache);
  }
  let ids = cache.byStream.get(streamId);
  if (!ids) {
    ids = Object.freeze(subscriberIds(db, streamId));
    // NaN versions (writes not tracked) never match, so the entry is never read back.
    cache.byStream.set(streamId, ids);
  }
  return ids;
}

const sets = new WeakMap<readonly number[], ReadonlySet<number>>();

/**
 * The recipients as a set, made once per list: a cached channel list is
 * the same array send after send, so its set is too.
 */
export function recipientSet(recipients: readonly number[]): ReadonlySet<number> {
  let set = sets.get(recipients);
  if (!set) {
    set = new Set(recipients);
    if (Object.isFrozen(recipients)) sets.set(recipients, set);
  }
  return set;
}
