import { insertStream, insertSubscription } from '../../server/db/queries/streams.js';
import type { TestServer } from './server.js';

export interface ChannelFixture {
  name: string;
  private?: boolean;
  webPublic?: boolean;
  historyPublic?: boolean;
  /** Subscriber user ids. */
  subscribers: number[];
}

/**
 * A channel with subscribers, written straight to the database so tests of
 * other areas do not depend on the subscription endpoints.
 */
export function createChannel(t: TestServer, channel: ChannelFixture): number {
  const { ctx } = t.server;
  return ctx.transaction(() => {
    const id = insertStream(ctx.db, {
      name: channel.name,
      description: `About ${channel.name}`,
      rendered_description: `<p>About ${channel.name}</p>`,
      invite_only: channel.private ?? false,
      is_web_public: channel.webPublic ?? false,
      history_public_to_subscribers: channel.historyPublic ?? !channel.private,
      date_created: Math.floor(ctx.now() / 1000),
      creator_id: null,
    });
    for (const userId of channel.subscribers) insertSubscription(ctx.db, id, userId, '#76ce90');
    return id;
  });
}
