import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let secret: number; // private, protected history: owner only
let elsewhere: number; // public: owner only

beforeAll(async () => {
  t = await startTestServer();
  const { owner } = t.accounts;
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [owner.id] });
  elsewhere = createChannel(t, { name: 'elsewhere', subscribers: [owner.id] });
});
afterAll(() => t.close());

const markUnread = (who: 'member' | 'guest', id: number) =>
  t.as(who).post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });

describe('POST /messages/flags, marking unread in channels one is not subscribed to', () => {
  it('answers for a private message exactly as for a message that does not exist', async () => {
    const hidden = await sendToChannel(t, 'owner', secret, 'plans');
    const missing = hidden + 1000;
    for (const who of ['member', 'guest'] as const) {
      expectError(await markUnread(who, missing), 400, 'BAD_REQUEST', 'Invalid message(s)');
      // Reporting the channel would tell a stranger the message exists, and where.
      const res = await markUnread(who, hidden);
      expectError(res, 400, 'BAD_REQUEST', 'Invalid message(s)');
      expect(JSON.stringify(res.body)).not.toContain(String(secret));
    }
  });

  it('still reports the channel of a message the user may read', async () => {
    const visible = await sendToChannel(t, 'owner', elsewhere, 'news');
    const res = await markUnread('member', visible);
    expect(res.body).toMatchObject({
      result: 'success',
      messages: [visible],
      ignored_because_not_subscribed_channels: [elsewhere],
    });
  });
});
