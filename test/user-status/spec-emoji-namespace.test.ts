/**
 * The spec names the built-in emoji namespace `service_extra_emoji` where
 * Zulip (and so the reference schemas this suite validates against) says
 * `zulip_extra_emoji`. Both are accepted and a status keeps the name it was
 * given, so these reads skip the reference's enum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const raw = { skipSchema: true };

describe("the spec's service_extra_emoji", () => {
  it('sets the zulip emoji and reads back as sent, in GET, register and the event', async () => {
    const member = t.accounts.member;
    const queue = await t.as('owner').post('/register', { fetch_event_types: [] }, raw);
    const queueId = queue.body.queue_id;

    const res = await t.as('member').post('/users/me/status', {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'service_extra_emoji',
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const expected = {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'service_extra_emoji',
    };

    const got = await t.as('owner').get(`/users/${member.id}/status`, {}, raw);
    expect(got.body).toEqual({ result: 'success', msg: '', status: expected });

    const state = await t
      .as('owner')
      .post('/register', { fetch_event_types: ['user_status'] }, raw);
    expect(state.body.user_status).toEqual({ [member.id]: expected });

    const events = await t
      .as('owner')
      .get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true }, raw);
    expect(events.body.events).toEqual([
      { id: 0, type: 'user_status', user_id: member.id, ...expected },
    ]);
  });

  it('checks the code and the name like Zulip does for its own name', async () => {
    const set = (params: Record<string, unknown>) =>
      t.as('member').post('/users/me/status', { reaction_type: 'service_extra_emoji', ...params });
    expect((await set({ emoji_name: 'zulip', emoji_code: 'hearth' })).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Invalid emoji code.',
    });
    expect((await set({ emoji_name: 'octopus', emoji_code: 'zulip' })).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Invalid emoji name.',
    });
    // The code may be left out: the name supplies it.
    expect((await set({ emoji_name: 'zulip' })).body).toEqual({ result: 'success', msg: '' });
  });
});
