import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk, streamMessage } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock, setRealm } from './send-support.js';

const clock = new FakeClock();
let t: TestServer;
let general: number;
let other: number;
let secret: number;
const now = () => Math.floor(clock.ms / 1000);

beforeAll(async () => {
  t = await startTestServer({ now: clock.now });
  const a = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [a.owner.id, a.member.id] });
  other = createChannel(t, { name: 'other', subscribers: [a.owner.id, a.member.id] });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
});
afterAll(() => t.close());

const history = (id: number, params: Record<string, unknown> = {}, who = 'member' as const) =>
  t.as(who).get(`/messages/${id}/history`, params);

describe('GET /messages/{id}/history', () => {
  it('has only the original snapshot for a message never edited', async () => {
    const sent = now();
    const id = await sendOk(t.as('member'), streamMessage('general', 'news', 'first **draft**'));
    const res = await history(id);
    expect(res.status).toBe(200);
    expect(res.body.message_history).toEqual([
      {
        topic: 'news',
        content: 'first **draft**',
        rendered_content: '<p>first <strong>draft</strong></p>',
        timestamp: sent,
        user_id: t.accounts.member.id,
      },
    ]);
  });

  it('lists every edit oldest first with the state right after it', async () => {
    const sent = now();
    const id = await sendOk(t.as('member'), streamMessage('general', 'story', 'one'));
    clock.advance(10);
    const firstEdit = now();
    await t.as('member').patch(`/messages/${id}`, { content: 'two' });
    clock.advance(10);
    const move = now();
    await t.as('member').patch(`/messages/${id}`, {
      topic: 'saga',
      send_notification_to_new_thread: false,
    });
    clock.advance(10);
    const channelMove = now();
    await t.as('owner').patch(`/messages/${id}`, {
      stream_id: other,
      send_notification_to_new_thread: false,
    });

    const snapshots = (await history(id)).body.message_history;
    expect(snapshots).toHaveLength(4);
    expect(snapshots[0]).toEqual({
      topic: 'story',
      content: 'one',
      rendered_content: '<p>one</p>',
      timestamp: sent,
      user_id: t.accounts.member.id,
    });
    expect(snapshots[1]).toEqual({
      topic: 'story',
      content: 'two',
      rendered_content: '<p>two</p>',
      prev_content: 'one',
      prev_rendered_content: '<p>one</p>',
      content_html_diff: expect.stringContaining('highlight_text_inserted'),
      timestamp: firstEdit,
      user_id: t.accounts.member.id,
    });
    expect(snapshots[2]).toEqual({
      topic: 'saga',
      prev_topic: 'story',
      content: 'two',
      rendered_content: '<p>two</p>',
      timestamp: move,
      user_id: t.accounts.member.id,
    });
    expect(snapshots[3]).toEqual({
      topic: 'saga',
      content: 'two',
      rendered_content: '<p>two</p>',
      prev_stream: general,
      stream: other,
      timestamp: channelMove,
      user_id: t.accounts.owner.id,
    });
  });

  it('names the empty topic unless allow_empty_topic_name is set', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', '', 'no topic'));
    expect((await history(id)).body.message_history[0].topic).toBe('general chat');
    const raw = await history(id, { allow_empty_topic_name: true });
    expect(raw.body.message_history[0].topic).toBe('');
  });

  it('gives direct messages an empty topic', async () => {
    const id = await sendOk(t.as('member'), {
      type: 'direct',
      to: [t.accounts.owner.id],
      content: 'dm',
    });
    expect((await history(id)).body.message_history[0].topic).toBe('');
  });

  it('refuses missing and invisible messages alike', async () => {
    const hidden = await sendOk(t.as('owner'), streamMessage(secret, 'x', 'private'));
    for (const id of [hidden, 424242]) {
      const res = await history(id);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    }
  });

  it('accepts message_id repeated in the query (zulip-js)', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'js', 'x'));
    const res = await history(id, { message_id: id });
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
  });

  it('can be disabled, or limited to moves, by the organization', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'policy', 'v1'));
    await t.as('member').patch(`/messages/${id}`, { content: 'v2' });
    await t.as('member').patch(`/messages/${id}`, {
      topic: 'policy moved',
      content: 'v3',
      send_notification_to_new_thread: false,
    });
    setRealm(t, { message_edit_history_visibility_policy: 'none' });
    try {
      const res = await history(id);
      expect(res.body).toMatchObject({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: 'Message edit history is disabled in this organization',
      });
      setRealm(t, { message_edit_history_visibility_policy: 'moves' });
      const moves = (await history(id)).body.message_history;
      // The content-only edit is hidden; the move keeps its topic fields only.
      expect(moves).toHaveLength(2);
      expect(moves[1]).toMatchObject({ prev_topic: 'policy', topic: 'policy moved' });
      expect(moves[1]).not.toHaveProperty('prev_content');
      expect(moves[1]).not.toHaveProperty('content_html_diff');
    } finally {
      setRealm(t, { message_edit_history_visibility_policy: 'all' });
    }
    expect((await history(id)).body.message_history).toHaveLength(3);
  });
});
