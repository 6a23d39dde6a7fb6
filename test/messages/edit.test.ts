import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk, streamMessage } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { editRows, FakeClock, flagsOf, message, searchIds, setRealm } from './send-support.js';

const clock = new FakeClock();
let t: TestServer;
let general: number;
let secret: number;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer({ now: clock.now });
  watchers = new Watchers(t);
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.moderator.id],
  });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  for (const who of ['owner', 'admin', 'member', 'guest'] as const) {
    await watchers.add(who);
  }
});
afterAll(() => t.close());

beforeEach(async () => {
  await watchers.clear();
});

const edit = (who: 'owner' | 'admin' | 'member' | 'moderator' | 'guest', id: number, params = {}) =>
  t.as(who).patch(`/messages/${id}`, params);

describe('content edits', () => {
  it('re-render the message, record a snapshot and tell everyone with access', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'edits', 'hello pineapple'));
    clock.advance(30);
    const res = await edit('member', id, { content: 'hello **mango**' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', detached_uploads: [] });

    const row = message(t, id)!;
    expect(row.content).toBe('hello **mango**');
    expect(row.rendered_content).toBe('<p>hello <strong>mango</strong></p>');
    expect(row.last_edit_time).toBe(Math.floor(clock.ms / 1000));
    expect(row.last_moved_time).toBeNull();

    const [snapshot] = editRows(t, id);
    expect(snapshot).toMatchObject({
      user_id: t.accounts.member.id,
      timestamp: Math.floor(clock.ms / 1000),
      prev_content: 'hello pineapple',
      prev_rendered_content: '<p>hello pineapple</p>',
      prev_topic: null,
      prev_stream_id: null,
    });
    const history = await t.as('member').get(`/messages/${id}/history`);
    expect(history.body.message_history[1].content_html_diff).toBe(
      '<div><p>hello <span class="highlight_text_inserted"><strong>mango</strong></span> ' +
        '<span class="highlight_text_deleted">pineapple</span> </p></div>',
    );

    // The search index follows the new text (same row id).
    expect(searchIds(t, 'pineapple')).not.toContain(id);
    expect(searchIds(t, 'mango')).toContain(id);

    const events = await watchers.take('update_message');
    expect(receivers(events)).toEqual(['admin', 'member', 'owner']);
    expect(events.owner![0]).toMatchObject({
      type: 'update_message',
      user_id: t.accounts.member.id,
      edit_timestamp: Math.floor(clock.ms / 1000),
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      stream_id: general,
      stream_name: 'general',
      orig_content: 'hello pineapple',
      orig_rendered_content: '<p>hello pineapple</p>',
      content: 'hello **mango**',
      rendered_content: '<p>hello <strong>mango</strong></p>',
      is_me_message: false,
      flags: [],
    });
    expect(events.owner![0]).not.toHaveProperty('subject');
    expect(events.owner![0]).not.toHaveProperty('orig_subject');
    expect(events.owner![0]).not.toHaveProperty('propagate_mode');
  });

  it('recompute mention flags', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'edits', 'plain'));
    await edit('member', id, { content: 'now @**Ada Admin**' });
    expect(flagsOf(t, t.accounts.admin.id, id)).toEqual(['mentioned']);
    let events = await watchers.take('update_message');
    expect(events.admin![0].flags).toEqual(['mentioned']);
    await edit('member', id, { content: 'never mind' });
    expect(flagsOf(t, t.accounts.admin.id, id)).toEqual([]);
    events = await watchers.take('update_message');
    expect(events.admin![0].flags).toEqual([]);
  });

  it('turn blank content into "(deleted)"', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'edits', 'oops'));
    await edit('member', id, { content: '   ' });
    expect(message(t, id)!.content).toBe('(deleted)');
  });

  it("are only for the message's sender", async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'edits', 'mine'));
    const res = await edit('admin', id, { content: 'theirs' });
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: "You don't have permission to edit this message",
    });
  });

  it('can be turned off for the organization', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'edits', 'frozen'));
    setRealm(t, { allow_message_editing: false });
    try {
      const res = await edit('member', id, { content: 'thawed' });
      expect(res.body.msg).toBe('Your organization has turned off message editing');
    } finally {
      setRealm(t, { allow_message_editing: true });
    }
  });

  it('end after the time limit (plus 20 seconds of grace)', async () => {
    setRealm(t, { message_content_edit_limit_seconds: 600 });
    const late = await sendOk(t.as('member'), streamMessage('general', 'edits', 'late'));
    const inTime = await sendOk(t.as('member'), streamMessage('general', 'edits', 'in time'));
    clock.advance(619);
    expect((await edit('member', inTime, { content: 'made it' })).status).toBe(200);
    clock.advance(2);
    const res = await edit('member', late, { content: 'too late' });
    expect(res.body.msg).toBe('The time limit for editing this message has passed');
    setRealm(t, { message_content_edit_limit_seconds: null });
    expect((await edit('member', late, { content: 'no limit now' })).status).toBe(200);
  });

  it('check the previous content hash when given', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'edits', 'hash me'));
    const res = await edit('member', id, { content: 'x', prev_content_sha256: 'abc' });
    expect(res.status).toBe(400);
    const sha = (await import('node:crypto')).createHash('sha256').update('hash me').digest('hex');
    expect((await edit('member', id, { content: 'x', prev_content_sha256: sha })).status).toBe(200);
  });

  it('accept zulip-js style query-string parameters', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'edits', 'query'));
    const res = await t
      .as('member')
      .patch(
        `/messages/${id}`,
        { message_id: id, content: 'from the query' },
        { encoding: 'query' },
      );
    expect(res.body).toMatchObject({ result: 'success' });
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
    expect(message(t, id)!.content).toBe('from the query');
  });
});

describe('direct messages', () => {
  it('can have their content edited, seen by the participants only', async () => {
    const id = await sendOk(t.as('member'), {
      type: 'direct',
      to: [t.accounts.guest.id],
      content: 'hi guest',
    });
    await edit('member', id, { content: 'hello guest' });
    const events = await watchers.take('update_message');
    expect(receivers(events)).toEqual(['guest', 'member']);
    expect(events.guest![0]).not.toHaveProperty('stream_id');
    expect(events.guest![0].content).toBe('hello guest');
  });

  it('cannot get topics or channels', async () => {
    const id = await sendOk(t.as('member'), {
      type: 'direct',
      to: [t.accounts.owner.id],
      content: 'x',
    });
    expect((await edit('member', id, { topic: 'nope' })).body.msg).toBe(
      'Direct messages cannot have topics.',
    );
    expect((await edit('member', id, { stream_id: general })).body.msg).toBe(
      'Direct messages cannot be moved to channels.',
    );
  });
});

describe('validation', () => {
  it('needs something to change', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'same', 'x'));
    expect((await edit('member', id, {})).body.msg).toBe('Nothing to change');
    // The current topic counts as no change.
    expect((await edit('member', id, { topic: ' same ' })).body.msg).toBe('Nothing to change');
  });

  it('refuses invisible or missing messages alike', async () => {
    const hidden = await sendOk(t.as('owner'), streamMessage(secret, 'x', 'owner only'));
    for (const id of [hidden, 999999]) {
      const res = await edit('member', id, { content: 'x' });
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    }
  });

  it('refuses propagate_mode without a move and content with a channel change', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'v', 'x'));
    expect(
      (await edit('member', id, { content: 'y', propagate_mode: 'change_all' })).body.msg,
    ).toBe('Invalid propagate_mode without topic edit');
    expect((await edit('member', id, { propagate_mode: 'sideways', content: 'y' })).body.msg).toBe(
      'Invalid propagate_mode',
    );
    const other = createChannel(t, { name: 'other', subscribers: [t.accounts.member.id] });
    expect((await edit('member', id, { content: 'y', stream_id: other })).body.msg).toBe(
      'Cannot change message content while changing channel',
    );
  });

  it('accepts `subject` for the topic', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'old name', 'x'));
    expect((await edit('member', id, { subject: 'new name' })).status).toBe(200);
    expect(message(t, id)!.topic).toBe('new name');
  });

  it('refuses to edit in an archived channel', async () => {
    const attic = createChannel(t, { name: 'attic', subscribers: [t.accounts.member.id] });
    const id = await sendOk(t.as('member'), streamMessage(attic, 'x', 'before'));
    t.server.ctx.db.prepare('UPDATE streams SET is_archived = 1 WHERE id = ?').run(attic);
    expect((await edit('member', id, { content: 'after' })).body.msg).toBe('Invalid message(s)');
  });
});
