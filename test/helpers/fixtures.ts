import { insertStream, insertSubscription } from '../../server/db/queries/streams.js';
import { userById } from '../../server/db/queries/users.js';
import { createUser } from '../../server/users/users.js';
import type { Account, TestServer } from './server.js';

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

let quickCounter = 0;

/**
 * Another member without a password: same as TestServer.createMember but
 * skips the deliberately slow scrypt hash, for accounts that never log in
 * with a password.
 */
export async function quickMember(t: TestServer, fullName: string, role = 400): Promise<Account> {
  quickCounter++;
  const email = `quick${quickCounter}-${process.pid}@example.com`;
  const { user_id } = await createUser(t.server.ctx, null, {
    email,
    password: null,
    fullName,
    role,
  });
  const row = userById(t.server.ctx.db, user_id)!;
  return { id: user_id, email: row.delivery_email, apiKey: row.api_key, password: null };
}
