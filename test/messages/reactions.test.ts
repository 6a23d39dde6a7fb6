import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userTopicPolicy } from '../../server/db/queries/user-topics.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk, streamMessage } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { flagRow, flagsOf, setUser } from './send-support.js';

let t: TestServer;
let general: number;
let secret: number;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  const a = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [a.owner.id, a.member.id] });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  for (const who of ['owner', 'admin', 'member', 'guest'] as const) {
    await watchers.add(who);
  }
});
afterAll(() => t.close());

beforeEach(async () => {
  await watchers.clear();
});

type Who = 'owner' | 'admin' | 'member' | 'guest';
const react = (who: Who, id: number, params: Record<string, unknown>) =>
  t.as(who).post(`/messages/${id}/reactions`, params);
const unreact = (who: Who, id: number, params: Record<string, unknown>) =>
  t.as(who).delete(`/messages/${id}/reactions`, params);
const stored = (id: number) =>
  t.server.ctx.db
    .prepare(
      'SELECT user_id, emoji_name, emoji_code, reaction_type FROM reactions WHERE message_id = ? ORDER BY id',
    )
    .all(id);

describe('adding reactions', () => {
  it('resolves a bare emoji name to its code (zulip_bots sends only the name)', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'r', 'hello'));
    const res = await react('owner', id, { emoji_name: 'wave' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(stored(id)).toEqual([
      {
        user_id: t.accounts.owner.id,
        emoji_name: 'wave',
        emoji_code: '1f44b',
        reaction_type: 'unicode_emoji',
      },
    ]);
    const events = await watchers.take('reaction');
    expect(receivers(events)).toEqual(['member', 'owner']);
    expect(events.member![0]).toEqual({
      id: expect.any(Number),
      type: 'reaction',
      op: 'add',
      user_id: t.accounts.owner.id,
      user: {
        user_id: t.accounts.owner.id,
        email: t.accounts.owner.email,
        full_name: 'Olivia Owner',
      },
      message_id: id,
      emoji_name: 'wave',
      emoji_code: '1f44b',
      reaction_type: 'unicode_emoji',
    });
  });

  it('takes the full triple, with message_id repeated in the body (zulip-terminal)', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'r', 'zt'));
    const res = await react('member', id, {
      emoji_name: 'thumbs_up',
      emoji_code: '1f44d',
      reaction_type: 'unicode_emoji',
      message_id: String(id),
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    // Another name for the same emoji joins the existing reaction's name.
    await react('owner', id, {
      emoji_name: '+1',
      emoji_code: '1f44d',
      reaction_type: 'unicode_emoji',
    });
    expect(stored(id).map((r) => (r as { emoji_name: string }).emoji_name)).toEqual([
      'thumbs_up',
      'thumbs_up',
    ]);
  });

  it('refuses duplicates and unknown or mismatched emoji', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'r', 'dup'));
    await react('member', id, { emoji_name: 'tada' });
    const expectError = async (params: Record<string, unknown>, msg: string) => {
      const res = await react('member', id, params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg });
    };
    // Zulip's ReactionExistsError has a code of its own.
    const dup = await react('member', id, { emoji_name: 'tada' });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({
      result: 'error',
      code: 'REACTION_ALREADY_EXISTS',
      msg: 'Reaction already exists.',
    });
    await expectError({ emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist");
    await expectError(
      { emoji_name: 'wave', emoji_code: '1f44d', reaction_type: 'unicode_emoji' },
      'Invalid emoji name.',
    );
    await expectError(
      { emoji_name: 'wave', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' },
      'Invalid emoji code.',
    );
    await expectError(
      { emoji_name: 'party', emoji_code: '999', reaction_type: 'realm_emoji' },
      'Invalid custom emoji.',
    );
  });

  it('knows custom emoji and the zulip emoji', async () => {
    const emojiId = Number(
      t.server.ctx.db
        .prepare(
          "INSERT INTO realm_emoji (name, author_id, file_name) VALUES ('party_parrot', ?, 'pp.gif')",
        )
        .run(t.accounts.owner.id).lastInsertRowid,
    );
    const id = await sendOk(t.as('member'), streamMessage('general', 'r', 'custom'));
    await react('member', id, { emoji_name: 'party_parrot' });
    await react('member', id, { emoji_name: 'zulip' });
    expect(stored(id)).toEqual([
      expect.objectContaining({ emoji_code: String(emojiId), reaction_type: 'realm_emoji' }),
      expect.objectContaining({ emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }),
    ]);
  });

  it('refuses messages the user cannot see', async () => {
    const hidden = await sendOk(t.as('owner'), streamMessage(secret, 'r', 'private'));
    for (const id of [hidden, 999999]) {
      expect((await react('member', id, { emoji_name: 'wave' })).body.msg).toBe(
        'Invalid message(s)',
      );
    }
    // A guest cannot react in a public channel it is not subscribed to.
    const open = await sendOk(t.as('member'), streamMessage('general', 'r', 'public'));
    expect((await react('guest', open, { emoji_name: 'wave' })).body.msg).toBe(
      'Invalid message(s)',
    );
  });

  it('gives a non-subscriber of a public channel a historical row, and with it the events', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'r', 'drive-by'));
    await react('admin', id, { emoji_name: 'eyes' });
    expect(flagRow(t, t.accounts.admin.id, id)).toBe(1 | 128);
    expect(flagsOf(t, t.accounts.admin.id, id)).toEqual(['read', 'historical']);
    await watchers.clear();
    await react('member', id, { emoji_name: 'eyes' });
    const events = await watchers.take('reaction');
    expect(receivers(events)).toEqual(['admin', 'member', 'owner']);
  });

  it('counts as participation for those who follow topics they take part in', async () => {
    setUser(t, t.accounts.owner.id, { automatically_follow_topics_policy: 1 });
    try {
      const id = await sendOk(t.as('member'), streamMessage('general', 'join in', 'x'));
      await watchers.clear();
      await react('owner', id, { emoji_name: 'wave' });
      expect(userTopicPolicy(t.server.ctx.db, t.accounts.owner.id, general, 'join in')).toBe(3);
      const events = await watchers.take('user_topic');
      expect(receivers(events)).toEqual(['owner']);
    } finally {
      setUser(t, t.accounts.owner.id, { automatically_follow_topics_policy: 3 });
    }
  });

  it('work on direct messages', async () => {
    const id = await sendOk(t.as('member'), {
      type: 'direct',
      to: [t.accounts.guest.id],
      content: 'dm',
    });
    await react('guest', id, { emoji_name: 'heart' });
    const events = await watchers.take('reaction');
    expect(receivers(events)).toEqual(['guest', 'member']);
    expect((await react('owner', id, { emoji_name: 'heart' })).body.msg).toBe('Invalid message(s)');
  });
});

describe('removing reactions', () => {
  it('by name, by code, and from the query string (zulip-js)', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'r', 'remove me'));
    await react('member', id, { emoji_name: 'wave' });
    await react('member', id, { emoji_name: 'rocket' });
    await react('member', id, { emoji_name: 'fire' });
    await watchers.clear();

    expect((await unreact('member', id, { emoji_name: 'wave' })).status).toBe(200);
    const events = await watchers.take('reaction');
    expect(receivers(events)).toEqual(['member', 'owner']);
    expect(events.owner![0]).toMatchObject({
      op: 'remove',
      emoji_name: 'wave',
      emoji_code: '1f44b',
      reaction_type: 'unicode_emoji',
      user_id: t.accounts.member.id,
    });

    const byCode = await unreact('member', id, {
      emoji_code: '1f680',
      reaction_type: 'unicode_emoji',
    });
    expect(byCode.status).toBe(200);
    const viaQuery = await t
      .as('member')
      .delete(
        `/messages/${id}/reactions`,
        { emoji_name: 'fire', message_id: id },
        { encoding: 'query' },
      );
    expect(viaQuery.body).toEqual({ result: 'success', msg: '' });
    expect(stored(id)).toEqual([]);
  });

  it("reports reactions that don't exist", async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'r', 'nothing here'));
    const res = await unreact('member', id, { emoji_name: 'wave' });
    expect(res.body).toEqual({
      result: 'error',
      code: 'REACTION_DOES_NOT_EXIST',
      msg: "Reaction doesn't exist.",
    });
    // Someone else's reaction is not yours to remove.
    await react('owner', id, { emoji_name: 'wave' });
    expect((await unreact('member', id, { emoji_name: 'wave' })).body.msg).toBe(
      "Reaction doesn't exist.",
    );
    const neither = await unreact('member', id, {});
    expect(neither.body.msg).toBe(
      'At least one of the following arguments must be present: emoji_name, emoji_code',
    );
  });
});
