/**
 * unread_msgs (POST /register) for a user with tens of thousands of unread
 * direct messages must be built in time linear in their number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmGroupFor } from '../../server/db/queries/dm-groups.js';
import { insertMessage } from '../../server/db/queries/messages.js';
import { unreadMsgs } from '../../server/flags/unread.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('unread_msgs at scale', () => {
  it('builds unread_msgs in linear time for a long unread direct conversation', () => {
    const { ctx } = t.server;
    const { owner, member, admin } = t.accounts;
    const count = 24_000;
    ctx.transaction(() => {
      const pair = dmGroupFor(ctx.db, [owner.id, member.id]);
      const group = dmGroupFor(ctx.db, [owner.id, member.id, admin.id]);
      for (let i = 0; i < count; i++) {
        insertMessage(ctx.db, {
          sender_id: owner.id,
          stream_id: null,
          dm_group_id: i < count - 10 ? pair : group,
          topic: '',
          content: 'x',
          rendered_content: '<p>x</p>',
          date_sent: 1,
          sending_client: 'test',
        });
      }
    });
    const unread = unreadMsgs(ctx.db, member.id, { emptyTopicName: null });
    expect(unread.count).toBe(count);
    expect(unread.pms[0]!.unread_message_ids).toHaveLength(count - 10);
    expect(unread.huddles[0]!.unread_message_ids).toHaveLength(10);
  }, 60_000);
});
