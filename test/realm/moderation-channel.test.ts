import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let open: number;
let moderation: number;
let w: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  const a = t.accounts;
  open = createChannel(t, { name: 'town square', subscribers: [a.admin.id, a.member.id] });
  moderation = createChannel(t, {
    name: 'moderation',
    private: true,
    subscribers: [a.admin.id, a.moderator.id],
  });
  w = new Watchers(t, { event_types: ['realm'] });
  for (const who of ['admin', 'member'] as const) await w.add(who);
});
afterAll(() => t?.close());

const patch = (who: 'admin' | 'member' | 'owner', id: number) =>
  t.as(who).patch('/realm', { moderation_request_channel_id: id });

describe('PATCH /realm moderation_request_channel_id', () => {
  it('takes a private channel, tells everyone, and reports then go there', async () => {
    expect(
      (await t.as('member').post('/messages/1/report', { report_type: 'spam' })).body.msg,
    ).toBe('Message reporting is not enabled in this organization.');
    const res = await patch('admin', moderation);
    expect(res.body).toMatchObject({
      result: 'success',
      moderation_request_channel_id: moderation,
    });
    const events = await w.take('realm');
    for (const who of ['admin', 'member']) {
      expect(events[who]).toEqual([
        expect.objectContaining({
          op: 'update',
          property: 'moderation_request_channel_id',
          value: moderation,
        }),
      ]);
    }
    const reg = await t.as('admin').post('/register', { fetch_event_types: ['realm'] });
    expect(reg.body.realm_moderation_request_channel_id).toBe(moderation);
    const id = await sendToChannel(t, 'admin', open, 'lunch', 'buy my stuff');
    const report = await t.as('member').post(`/messages/${id}/report`, { report_type: 'spam' });
    expect(report.body.result).toBe('success');
  });

  it('refuses public channels, unknown ids and non-administrators; -1 turns it off', async () => {
    expectError(
      await patch('admin', open),
      400,
      'BAD_REQUEST',
      'Moderation request channel must be private.',
    );
    expectError(await patch('admin', 99_999), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(
      await patch('member', -1),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect((await patch('admin', -1)).body.result).toBe('success');
    const reg = await t.as('admin').post('/register', { fetch_event_types: ['realm'] });
    expect(reg.body.realm_moderation_request_channel_id).toBe(-1);
  });
});
