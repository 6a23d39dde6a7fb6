import { describe, expect, it } from 'vitest';
import type { ChatState, Message, User, UserGroup } from '../../../renderer/src/chat/data/model.js';
import {
  canResolveTopics,
  hasGroupSetting,
  messagePermissions,
} from '../../../renderer/src/chat/message-actions/permissions.js';

const NOW = 1_000_000;
const person = (user_id: number, role: number, extra: Partial<User> = {}): User =>
  ({ user_id, role, full_name: `U${user_id}`, is_active: true, is_bot: false, ...extra }) as User;

const groups = new Map<number, UserGroup>(
  [
    { id: 1, name: 'role:everyone', is_system_group: true, members: [], direct_subgroup_ids: [] },
    { id: 2, name: 'role:members', is_system_group: true, members: [], direct_subgroup_ids: [] },
    { id: 3, name: 'role:moderators', is_system_group: true, members: [], direct_subgroup_ids: [] },
    {
      id: 4,
      name: 'role:administrators',
      is_system_group: true,
      members: [],
      direct_subgroup_ids: [],
    },
    { id: 5, name: 'role:nobody', is_system_group: true, members: [], direct_subgroup_ids: [] },
    { id: 10, name: 'movers', is_system_group: false, members: [21], direct_subgroup_ids: [11] },
    { id: 11, name: 'inner', is_system_group: false, members: [22], direct_subgroup_ids: [10] },
  ].map((g) => [g.id, { description: '', ...g }]),
);

function stateFor(
  me: User,
  settings: Record<string, unknown> = {},
  channel: Record<string, unknown> = {},
): ChatState {
  return {
    ownUserId: me.user_id,
    users: new Map([
      [me.user_id, me],
      [30, person(30, 400)],
      [31, person(31, 400, { is_bot: true, bot_owner_id: me.user_id })],
    ]),
    groups,
    subscriptions: new Map([[8, { stream_id: 8, name: 'general', ...channel }]]),
    channels: new Map(),
    realm: {
      settings: {
        realm_allow_message_editing: true,
        realm_message_content_edit_limit_seconds: 600,
        realm_message_content_delete_limit_seconds: 600,
        realm_move_messages_within_stream_limit_seconds: 604800,
        realm_move_messages_between_streams_limit_seconds: 604800,
        realm_can_move_messages_between_topics_group: 1,
        realm_can_move_messages_between_channels_group: 2,
        realm_can_delete_any_message_group: 4,
        realm_can_delete_own_message_group: 1,
        ...settings,
      },
    },
  } as unknown as ChatState;
}

const message = (sender_id: number, age: number, extra: Partial<Message> = {}): Message =>
  ({
    id: 1,
    type: 'stream',
    stream_id: 8,
    subject: 't',
    sender_id,
    timestamp: NOW - age,
    ...extra,
  }) as Message;

describe('group-setting membership', () => {
  it('follows roles for system groups and members through subgroups, without looping', () => {
    expect(hasGroupSetting({ userId: 1, role: 400 }, 2, groups)).toBe(true);
    expect(hasGroupSetting({ userId: 1, role: 600 }, 2, groups)).toBe(false);
    expect(hasGroupSetting({ userId: 22, role: 400 }, 10, groups)).toBe(true);
    expect(hasGroupSetting({ userId: 23, role: 400 }, 10, groups)).toBe(false);
    expect(
      hasGroupSetting(
        { userId: 23, role: 300 },
        { direct_members: [], direct_subgroups: [3] },
        groups,
      ),
    ).toBe(true);
    expect(hasGroupSetting({ userId: 9, role: 100 }, 5, groups)).toBe(false);
  });
});

describe('what the message menu offers', () => {
  it('lets the sender edit content within the limit plus Zulip’s 20 s buffer', () => {
    const me = person(20, 400);
    expect(messagePermissions(message(20, 620), stateFor(me), NOW).editContent).toBe(true);
    expect(messagePermissions(message(20, 621), stateFor(me), NOW).editContent).toBe(false);
    expect(messagePermissions(message(30, 10), stateFor(me), NOW).editContent).toBe(false);
    const off = stateFor(me, { realm_allow_message_editing: false });
    expect(messagePermissions(message(20, 10), off, NOW).editContent).toBe(false);
    const unlimited = stateFor(me, { realm_message_content_edit_limit_seconds: null });
    expect(messagePermissions(message(20, 10 ** 6), unlimited, NOW).editContent).toBe(true);
  });

  it('offers topic edits and moves per the groups and limits, moderators past the limits', () => {
    const member = person(20, 400);
    const guest = person(20, 600);
    expect(messagePermissions(message(30, 10), stateFor(member), NOW)).toMatchObject({
      editTopic: true,
      moveChannel: true,
    });
    expect(messagePermissions(message(30, 10), stateFor(guest), NOW)).toMatchObject({
      editTopic: true,
      moveChannel: false,
    });
    const old = message(30, 604800 + 21);
    expect(messagePermissions(old, stateFor(member), NOW).editTopic).toBe(false);
    expect(messagePermissions(old, stateFor(person(20, 300)), NOW).editTopic).toBe(true);
    const dm = message(30, 10, { type: 'private', stream_id: undefined });
    expect(messagePermissions(dm, stateFor(member), NOW)).toMatchObject({
      editTopic: false,
      moveChannel: false,
    });
  });

  it('honours a channel’s own move permission', () => {
    const me = person(20, 600);
    const nobody = { realm_can_move_messages_between_topics_group: 5 };
    expect(messagePermissions(message(30, 10), stateFor(me, nobody), NOW).editTopic).toBe(false);
    const channelAllows = stateFor(me, nobody, { can_move_messages_within_channel_group: 1 });
    expect(messagePermissions(message(30, 10), channelAllows, NOW).editTopic).toBe(true);
  });

  it('deletes own messages (and one’s bots’) within the limit; admins delete any', () => {
    const me = person(20, 400);
    expect(messagePermissions(message(20, 600), stateFor(me), NOW).delete).toBe(true);
    expect(messagePermissions(message(20, 601), stateFor(me), NOW).delete).toBe(false);
    expect(messagePermissions(message(31, 10), stateFor(me), NOW).delete).toBe(true);
    expect(messagePermissions(message(30, 10), stateFor(me), NOW).delete).toBe(false);
    expect(messagePermissions(message(30, 10 ** 6), stateFor(person(20, 200)), NOW).delete).toBe(
      true,
    );
  });

  it('offers nothing on a message the server has not confirmed', () => {
    const me = person(20, 100);
    const echo = message(20, 0, { local_id: '1.01' });
    expect(Object.values(messagePermissions(echo, stateFor(me), NOW))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('resolving topics', () => {
  it('follows the organization’s can_resolve_topics_group, without a time limit', () => {
    const member = person(20, 400);
    const everyone = stateFor(member, { realm_can_resolve_topics_group: 1 });
    expect(messagePermissions(message(30, 10 ** 8), everyone, NOW).resolveTopic).toBe(true);
    const moderators = stateFor(member, { realm_can_resolve_topics_group: 3 });
    expect(messagePermissions(message(30, 10), moderators, NOW).resolveTopic).toBe(false);
    expect(canResolveTopics(moderators, 8, 't')).toBe(false);
    expect(
      canResolveTopics(stateFor(person(20, 300), { realm_can_resolve_topics_group: 3 }), 8, 't'),
    ).toBe(true);
  });

  it('lets administrators, the channel’s group and channel administrators resolve', () => {
    const nobody = { realm_can_resolve_topics_group: 5 };
    expect(canResolveTopics(stateFor(person(20, 200), nobody), 8, 't')).toBe(true);
    const guest = person(20, 600);
    expect(canResolveTopics(stateFor(guest, nobody), 8, 't')).toBe(false);
    expect(canResolveTopics(stateFor(guest, nobody, { can_resolve_topics_group: 1 }), 8, 't')).toBe(
      true,
    );
    expect(
      canResolveTopics(
        stateFor(guest, nobody, {
          can_administer_channel_group: { direct_members: [20], direct_subgroups: [] },
        }),
        8,
        't',
      ),
    ).toBe(true);
  });

  it('is not offered in general chat or on direct messages', () => {
    const everyone = stateFor(person(20, 100), { realm_can_resolve_topics_group: 1 });
    expect(canResolveTopics(everyone, 8, '')).toBe(false);
    expect(messagePermissions(message(30, 10, { subject: '' }), everyone, NOW).resolveTopic).toBe(
      false,
    );
    const dm = message(30, 10, { type: 'private', stream_id: undefined });
    expect(messagePermissions(dm, everyone, NOW).resolveTopic).toBe(false);
  });
});
