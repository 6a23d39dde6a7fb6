/**
 * POST /register's server_report_message_types: the reasons a message can
 * be reported for (Zulip's Realm.REPORT_MESSAGE_REASONS), which Zulip's
 * mobile app reads to offer them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

it('lists every report reason with its key and name, for every role', async () => {
  for (const who of ['owner', 'member', 'guest', 'bot'] as const) {
    const res = await t.as(who).post('/register', { fetch_event_types: ['realm'] });
    expect(res.body.server_report_message_types).toEqual([
      { key: 'spam', name: 'Spam' },
      { key: 'harassment', name: 'Harassment' },
      { key: 'inappropriate', name: 'Inappropriate content' },
      { key: 'norms', name: 'Violates community norms' },
      { key: 'other', name: 'Other reason' },
    ]);
  }
  // Each key is one POST /messages/{id}/report accepts.
  const sent = await t.as('owner').post('/messages', {
    type: 'private',
    to: JSON.stringify([t.accounts.member.id]),
    content: 'hello',
  });
  const res = await t.as('member').post(`/messages/${sent.body.id}/report`, {
    report_type: 'norms',
    description: 'Not how we talk here.',
  });
  expect(res.status, JSON.stringify(res.body)).not.toBe(404);
});
