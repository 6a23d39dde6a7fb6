import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitMessageEvent } from '../../server/messages/events.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('the message event of a message that is gone by delivery', () => {
  it('is skipped, not sent as an empty message', async () => {
    const reg = await t.as('member').post('/register', { event_types: ['message'] });
    t.server.ctx.transaction((tx) =>
      emitMessageEvent(t.server.ctx, tx, 987_654_321, [t.accounts.member.id], new Map()),
    );
    const res = await t.as('member').get('/events', {
      queue_id: reg.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(res.body.events.filter((e: { type: string }) => e.type === 'message')).toEqual([]);
  });
});
