import type { AppContext } from '../core/context.js';
import {
  allStreams,
  type StreamRow,
  type SubscriptionRow,
  subscribersByStream,
} from '../db/queries/streams.js';
import { tableMemo } from '../db/table-memo.js';
import { jsonAround } from '../shared/json-fields.js';
import type { Stream } from '../shared/zulip-api/index.js';
import { formatChannel, subscriptionSettings } from './rules.js';

/**
 * A channel formatted once for every reader: its stream_to_dict (with the
 * weekly traffic left null, since it follows the messages) and its
 * subscribers, also as JSON text split around stream_weekly_traffic.
 */
export interface FormattedChannel {
  row: StreamRow;
  dict: Readonly<Stream>;
  /** Active subscribers who are active users, ascending. */
  subscribers: readonly number[];
  subscribersJson: string;
  /** The dict's JSON up to stream_weekly_traffic's value. */
  beforeTraffic: string;
  /** The rest of the dict's JSON, without the closing brace. */
  afterTraffic: string;
}

/**
 * Every channel, by name_key, rebuilt only after a write to what the dicts
 * show: the channels, subscriptions (subscriber lists and counts) and users
 * (a deactivated user drops out of both). System group ids, the other input,
 * never change.
 */
export const formattedChannels = tableMemo(
  ['streams', 'subscriptions', 'users'],
  (ctx: AppContext): readonly FormattedChannel[] => {
    const subscribers = subscribersByStream(ctx.db);
    const counts = new Map([...subscribers].map(([id, list]) => [id, list.length]));
    return allStreams(ctx.db).map((row) => {
      const dict = formatChannel(ctx, row, counts);
      const [beforeTraffic, after] = jsonAround(dict, 'stream_weekly_traffic');
      const list = subscribers.get(row.id) ?? [];
      return {
        row,
        dict,
        subscribers: list,
        subscribersJson: JSON.stringify(list),
        beforeTraffic,
        afterTraffic: after.slice(0, -1),
      };
    });
  },
);

/** The channel's dict as JSON with its traffic and `extraFields` (",\"key\":value..."). */
export const channelJson = (
  channel: FormattedChannel,
  traffic: number | null,
  extraFields = '',
): string =>
  `${channel.beforeTraffic}${JSON.stringify(traffic)}${channel.afterTraffic}${extraFields}}`;

/** formatSubscription's JSON, from the formatted channel. */
export function subscriptionJson(
  channel: FormattedChannel,
  traffic: number | null,
  sub: SubscriptionRow,
  subscribersJson: string | undefined,
): string {
  const personal = JSON.stringify(subscriptionSettings(sub)).slice(1, -1);
  const subscribers = subscribersJson === undefined ? '' : `,"subscribers":${subscribersJson}`;
  return channelJson(channel, traffic, `,${personal}${subscribers}`);
}
