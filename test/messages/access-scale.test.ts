/**
 * Message access at scale: finding who may see a message, and moving
 * messages between channels, must not do work per subscriber (or per
 * subscriber squared) in channels with protected history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageById } from '../../server/db/queries/messages.js';
import { insertSubscription } from '../../server/db/queries/streams.js';
import { insertUser } from '../../server/db/queries/users.js';
import { usersWithMessageAccess } from '../../server/narrow/access.js';
import { Role } from '../../server/shared/roles.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** Members subscribed straight in the database (quick to make by the hundred). */
function crowd(count: number, prefix: string, channels: number[]): number[] {
  const { ctx } = t.server;
  return ctx.transaction(() => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const id = insertUser(ctx.db, {
        delivery_email: `${prefix}${i}@example.com`,
        full_name: `${prefix} ${i}`,
        role: Role.member,
        is_bot: false,
        bot_type: null,
        bot_owner_id: null,
        api_key: `${prefix}-key-${i}-${'x'.repeat(20)}`,
        password_hash: null,
        date_joined_ms: ctx.now(),
      });
      for (const channel of channels) insertSubscription(ctx.db, channel, id, '#76ce90');
      ids.push(id);
    }
    return ids;
  });
}

describe('who may see a message, in channels with hundreds of subscribers', () => {
  /**
   * Reaction, edit and delete events go to usersWithMessageAccess. In a channel
   * with protected history that used to look up every receiver once per
   * candidate: a second or more per reaction at 1,000 subscribers.
   */
  it('finds who may see a protected-history message without a query per subscriber', async () => {
    const { ctx } = t.server;
    const { owner, member } = t.accounts;
    const secret = createChannel(t, { name: 'secret', private: true, subscribers: [owner.id] });
    const subscribers = [owner.id, ...crowd(1000, 'crowd', [secret])];
    const id = await sendToChannel(t, 'owner', secret, 'plans');
    // Subscribed after the message: protected history keeps it from them.
    insertSubscription(ctx.db, secret, member.id, '#76ce90');
    const audience = usersWithMessageAccess(ctx, messageById(ctx.db, id)!);
    expect(audience).toEqual(subscribers.sort((a, b) => a - b));
  }, 60_000);

  it('moves a protected-history topic to another channel without work per subscriber squared', async () => {
    const { owner, member } = t.accounts;
    const from = createChannel(t, { name: 'vault', private: true, subscribers: [owner.id] });
    const to = createChannel(t, { name: 'lobby', subscribers: [owner.id] });
    crowd(500, 'movers', [from, to]);
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push(await sendToChannel(t, 'owner', from, 'moving'));
    const res = await t
      .as('owner')
      .patch(`/messages/${ids[0]}`, { stream_id: to, propagate_mode: 'change_all' });
    expect(res.body).toMatchObject({ result: 'success' });
    // Now in a public channel: members who never received them read them as history.
    const fetched = await t.as(member).get(`/messages/${ids[19]}`);
    expect(fetched.body.message.flags).toEqual(['read', 'historical']);
  }, 60_000);
});
