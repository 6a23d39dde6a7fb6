/**
 * Recorded event sequences (test/fixtures/chat-events/, see record.ts)
 * replayed into the store: the resulting state is what the member's chat
 * should show.
 */
import { describe, expect, it } from 'vitest';
import { dmKey } from '../../../renderer/src/chat/data/narrow.js';
import { unreadInTopic } from '../../../renderer/src/chat/data/unread.js';
import { fakeStore, type Json, loadRecording, polls, replayHandler, until } from './fake-server.js';

describe('replaying the messages scenario', () => {
  const recording = loadRecording('messages');
  const { ids } = recording;
  const general = ids.general!;

  it('keeps messages, unreads, edits, moves, deletions, reactions and widgets', async () => {
    const fake = fakeStore(replayHandler(recording));
    await polls(fake, 2);
    const state = fake.store.getState();
    fake.store.close();

    // Unread: early, dinner (the moved lunch messages and the move notice), plans (mention), vote, DM and group DM.
    expect(state.unread.channels.get(general)).toBe(7);
    expect(unreadInTopic(state.unread, general, 'dinner')).toBe(4);
    expect(unreadInTopic(state.unread, general, 'lunch')).toBe(0);
    expect(unreadInTopic(state.unread, general, 'plans')).toBe(1);
    expect(state.unread.directs.get(String(ids.admin))).toBe(1);
    expect(state.unread.directs.get(dmKey([ids.admin!, ids.moderator!], ids.member!))).toBe(1);
    expect(state.unread.total).toBe(9);
    // The wildcard mention was deleted; the name mention stays.
    expect(state.unread.mentions).toBe(1);

    const edited = state.messages.get(ids.lunch1!)!;
    expect(edited.content).toBe('<p>soup? <strong>yes</strong></p>');
    expect(edited.subject).toBe('dinner');
    expect(edited.last_edit_timestamp).toEqual(expect.any(Number));
    expect(edited.last_moved_timestamp).toEqual(expect.any(Number));
    expect(edited.flags).not.toContain('read');
    // Moved with it: the other spelling of the topic and the member's own message.
    expect(state.messages.get(ids.lunch2!)?.subject).toBe('dinner');
    expect(state.messages.get(ids.own!)?.subject).toBe('dinner');
    expect(state.messages.get(ids.lunch2!)?.flags).toContain('starred');
    expect(state.messages.get(ids.lunch2!)?.reactions).toEqual([
      {
        emoji_name: 'tada',
        emoji_code: '1f389',
        reaction_type: 'unicode_emoji',
        user_id: ids.member,
      },
    ]);
    expect(state.messages.has(ids.wildcard!)).toBe(false);
    expect(state.messages.get(ids.poll!)?.submessages).toHaveLength(2);

    // Recent conversations: newest first, the moved topic under its new name, the deleted-from one kept.
    const keys = state.recent.map((r) => r.key);
    expect(keys[0]).toBe(`channel:${general}:vote`);
    expect(keys).toContain(`channel:${general}:dinner`);
    expect(keys).not.toContain(`channel:${general}:lunch`);
    expect(state.recent.find((r) => r.key === `channel:${general}:plans`)?.maxId).toBe(ids.mention);
    expect(state.recent.find((r) => r.key === `dm:${ids.admin}`)).toMatchObject({
      userIds: [ids.admin],
      maxId: ids.dm,
    });
    // The plans topic was followed automatically on the mention.
    expect(state.userTopics).toContainEqual(
      expect.objectContaining({ stream_id: general, topic_name: 'plans', visibility_policy: 3 }),
    );
  });

  it('feeds a topic list live and follows the topic when it moves', async () => {
    const events = recording.events;
    const moveAt = events.findIndex((e: Json) => e.type === 'update_message' && e.propagate_mode);
    let release = () => {};
    const gate = new Promise<Json[]>((resolve) => {
      release = () => resolve(events.slice(moveAt));
    });
    const fake = fakeStore(
      replayHandler(recording, undefined, [[], events.slice(0, moveAt), gate]),
    );
    await until(fake.store, (s) => s.connection === 'connected');
    fake.store.actions.showNarrow([
      { operator: 'channel', operand: general },
      { operator: 'topic', operand: 'lunch' },
    ]);
    await until(fake.store, (s) => s.list?.foundNewest === true);
    await polls(fake, 3);
    // Topics match case-insensitively: "Lunch" belongs to "lunch".
    expect(fake.store.getState().list!.ids).toEqual([ids.lunch1, ids.lunch2, ids.own]);
    release();
    await polls(fake, 4);
    const list = fake.store.getState().list!;
    fake.store.close();
    expect(list.narrow).toEqual([
      { operator: 'channel', operand: general },
      { operator: 'topic', operand: 'dinner' },
    ]);
    // The move notice arrives in the new topic and joins the followed list.
    expect(list.ids.slice(0, 3)).toEqual([ids.lunch1, ids.lunch2, ids.own]);
    expect(list.ids).toHaveLength(4);
  });

  it('leaves a list with a search alone: only the server can match text', async () => {
    const fake = fakeStore(replayHandler(recording, undefined, [[], recording.events]));
    await until(fake.store, (s) => s.connection === 'connected');
    fake.store.actions.showNarrow([{ operator: 'search', operand: 'soup' }]);
    await until(fake.store, (s) => s.list?.foundNewest === true);
    await polls(fake, 3);
    expect(fake.store.getState().list!.ids).toEqual([]);
    fake.store.close();
  });
});

describe('replaying the muting scenario', () => {
  const recording = loadRecording('muting');
  const { ids } = recording;

  it('leaves muted topics, muted channels and muted users out of the counts', async () => {
    const fake = fakeStore(replayHandler(recording));
    await polls(fake, 2);
    const state = fake.store.getState();
    fake.store.close();
    // general: early and the followed "loud"; "quiet" is muted.
    expect(state.unread.channels.get(ids.general!)).toBe(2);
    expect(unreadInTopic(state.unread, ids.general!, 'quiet')).toBe(2);
    // random is muted: only the unmuted "signal" topic counts.
    expect(state.unread.channels.get(ids.random!)).toBe(1);
    expect(state.subscriptions.get(ids.random!)?.is_muted).toBe(true);
    expect(state.subscriptions.get(ids.general!)?.pin_to_top).toBe(true);
    expect(state.mutedUserIds).toEqual(new Set([ids.moderator]));
    // The muted user's DM arrived read.
    expect(state.unread.directs.has(String(ids.moderator))).toBe(false);
    const channelSum = [...state.unread.channels.values()].reduce((a, b) => a + b, 0);
    const directSum = [...state.unread.directs.values()].reduce((a, b) => a + b, 0);
    expect(state.unread.total).toBe(channelSum + directSum);
    // The server's own count agrees with ours at register time.
    expect(recording.register.unread_msgs.count).toBeGreaterThan(0);
  });

  it('counts a register snapshot as the server does', async () => {
    const fake = fakeStore(replayHandler(recording, undefined, []));
    await until(fake.store, (s) => s.connection === 'connected');
    expect(fake.store.getState().unread.total).toBe(recording.register.unread_msgs.count);
    fake.store.close();
  });
});

describe('replaying the people scenario', () => {
  const recording = loadRecording('people');
  const { ids } = recording;
  const presenceAt = recording.events.find((e: Json) => e.type === 'presence').presences[
    String(ids.admin)
  ].active_timestamp as number;

  it('keeps presence, statuses, typing, users, settings, realm, drafts and channels', async () => {
    const fake = fakeStore(replayHandler(recording), { now: presenceAt + 10 });
    await polls(fake, 2);
    const state = fake.store.getState();
    expect(state.presence.get(ids.admin!)).toEqual({ status: 'active', last_active: presenceAt });
    expect(state.userStatus.get(ids.admin!)).toMatchObject({
      status_text: 'at lunch',
      emoji_name: 'taco',
    });
    expect(state.users.get(ids.admin!)?.full_name).toBe('Ada Lovelace');
    expect(state.users.get(ids.admin!)?.is_admin).toBe(true);
    expect(state.settings.enter_sends).toBe(true);
    expect(state.realm.name).toBe('Renamed Org');
    expect(state.drafts.size).toBe(0);
    expect(state.groups?.get(ids.group!)).toMatchObject({
      name: 'chefs',
      members: [ids.moderator],
    });
    expect([...(state.groups?.values() ?? [])].some((g) => g.is_system_group)).toBe(true);
    const announce = [...state.channels.values()].find((c) => c.name === 'announce');
    expect(announce).toBeDefined();
    expect(state.subscriptions.has(announce!.stream_id)).toBe(false);
    expect(state.channels.get(ids.general!)?.rendered_description).toBe(
      '<p>All <strong>things</strong></p>',
    );
    expect(state.subscriptions.get(ids.general!)?.description).toBe('All **things**');
    // The DM typist stopped; the channel typist's message in lunch ended their notice.
    expect(state.typing.size).toBe(0);
    expect(fake.store.getState().unread.topics.get(ids.general!)?.get('lunch')).toBe(1);
    fake.store.close();
  });

  it('lets a typing notice that was never renewed lapse after 15 s', async () => {
    const typing = recording.events.filter((e: Json) => e.type === 'typing');
    const fake = fakeStore(replayHandler(recording, undefined, [[], typing]), {
      now: presenceAt + 10,
    });
    await until(fake.store, (s) => s.connection === 'connected');
    await until(fake.store, (s) => s.typing.size === 1);
    expect([...fake.store.getState().typing.entries()]).toEqual([
      [`channel:${ids.general}:lunch`, [ids.admin]],
    ]);
    fake.runTimers(14_999);
    expect(fake.store.getState().typing.size).toBe(1);
    fake.runTimers(15_000);
    expect(fake.store.getState().typing.size).toBe(0);
    fake.store.close();
  });

  it('keeps unchanged parts of the state identical across events', async () => {
    const fake = fakeStore(replayHandler(recording, undefined, [[], recording.events.slice(0, 2)]));
    await until(fake.store, (s) => s.connection === 'connected');
    const before = fake.store.getState();
    await polls(fake, 3);
    const after = fake.store.getState();
    fake.store.close();
    expect(after.presence).not.toBe(before.presence);
    expect(after.userStatus).not.toBe(before.userStatus);
    for (const part of [
      'users',
      'subscriptions',
      'channels',
      'messages',
      'unread',
      'drafts',
    ] as const) {
      expect(after[part], part).toBe(before[part]);
    }
  });

  it('answers the register request the chat sends', async () => {
    const fake = fakeStore(replayHandler(recording, () => undefined, []));
    await until(fake.store, (s) => s.connection === 'connected');
    fake.store.close();
    const register = fake.calls.find((c) => c.path === '/register')!;
    expect(register.params).toMatchObject({
      apply_markdown: 'true',
      client_gravatar: 'false',
      slim_presence: 'true',
      include_subscribers: 'false',
    });
    expect(JSON.parse(register.params.client_capabilities!)).toMatchObject({
      bulk_message_deletion: true,
      empty_topic_name: true,
      user_settings_object: true,
    });
    expect(register.params.event_types).toBeUndefined();
    // No image cookie to ask for any more: the browser session covers images too.
    expect(fake.calls[0]).toMatchObject({ method: 'POST', path: '/register' });
  });
});
