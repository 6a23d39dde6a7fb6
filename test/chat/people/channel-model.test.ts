/** Channel rules on the client: creation rights from group settings, the browser's rows, topic choices. */
import { describe, expect, it } from 'vitest';
import {
  browserRows,
  channelCreationRights,
  channelNameTaken,
  groupSettingIncludes,
  Policy,
  topicChoices,
  topicPolicy,
  type UserGroup,
} from '../../../renderer/src/chat/channels/channel-model.js';
import { channel, subscription, user } from './fixtures.js';

const group = (id: number, name: string, extra: Partial<UserGroup> = {}): UserGroup => ({
  id,
  name,
  members: [],
  direct_subgroup_ids: [],
  is_system_group: false,
  ...extra,
});

const groups = new Map<number, UserGroup>(
  [
    group(1, 'role:owners', { is_system_group: true }),
    group(2, 'role:administrators', { is_system_group: true }),
    group(3, 'role:moderators', { is_system_group: true }),
    group(4, 'role:members', { is_system_group: true }),
    group(5, 'role:nobody', { is_system_group: true }),
    group(10, 'designers', { members: [21] }),
    group(11, 'leads', { members: [22], direct_subgroup_ids: [10] }),
    group(12, 'old', { members: [23], deactivated: true }),
    group(13, 'loop-a', { direct_subgroup_ids: [14] }),
    group(14, 'loop-b', { direct_subgroup_ids: [13] }),
  ].map((g) => [g.id, g]),
);

const member = user(21, 'Dana Designer');
const lead = user(22, 'Lee Lead');
const owner = user(24, 'Oona Owner', { role: 100 });
const guest = user(25, 'Gus Guest', { role: 600 });

describe('groupSettingIncludes', () => {
  it('decides system groups by role', () => {
    expect(groupSettingIncludes(4, member, groups)).toBe(true);
    expect(groupSettingIncludes(4, guest, groups)).toBe(false);
    expect(groupSettingIncludes(2, member, groups)).toBe(false);
    expect(groupSettingIncludes(1, owner, groups)).toBe(true);
    expect(groupSettingIncludes(5, owner, groups)).toBe(false);
    expect(groupSettingIncludes('role:moderators', user(1, 'M', { role: 300 }), groups)).toBe(true);
  });
  it('follows members and subgroups, not deactivated groups, and survives cycles', () => {
    expect(groupSettingIncludes(11, member, groups)).toBe(true);
    expect(groupSettingIncludes(10, lead, groups)).toBe(false);
    expect(groupSettingIncludes(12, user(23, 'Old'), groups)).toBe(false);
    expect(groupSettingIncludes(13, member, groups)).toBe(false);
    expect(groupSettingIncludes(99, member, groups)).toBe(false);
  });
  it('reads anonymous groups', () => {
    const anonymous = { direct_members: [25], direct_subgroups: [10] };
    expect(groupSettingIncludes(anonymous, guest, groups)).toBe(true);
    expect(groupSettingIncludes(anonymous, member, groups)).toBe(true);
    expect(groupSettingIncludes(anonymous, lead, groups)).toBe(false);
  });
});

describe('channelCreationRights', () => {
  const settings = {
    realm_can_create_public_channel_group: 4,
    realm_can_create_private_channel_group: { direct_members: [], direct_subgroups: [11] },
    realm_can_create_web_public_channel_group: 1,
    realm_enable_spectator_access: false,
  };
  it('checks each kind against its group setting', () => {
    expect(channelCreationRights(member, settings, groups)).toEqual({
      public: true,
      private: true,
      web_public: false,
    });
    expect(channelCreationRights(user(30, 'Plain'), settings, groups)).toEqual({
      public: true,
      private: false,
      web_public: false,
    });
    expect(channelCreationRights(guest, settings, groups).public).toBe(false);
  });
  it('allows web-public channels only with spectator access on', () => {
    expect(channelCreationRights(owner, settings, groups).web_public).toBe(false);
    const open = { ...settings, realm_enable_spectator_access: true };
    expect(channelCreationRights(owner, open, groups).web_public).toBe(true);
  });
  it('allows nothing without a user or settings', () => {
    expect(channelCreationRights(undefined, settings, groups)).toEqual({
      public: false,
      private: false,
      web_public: false,
    });
    expect(channelCreationRights(owner, {}, groups).public).toBe(false);
  });
});

describe('browserRows', () => {
  const state = {
    channels: new Map([
      [1, channel(1, 'general', { description: 'Everything' })],
      [2, channel(2, 'Design', { description: 'Pixels and fonts' })],
      [3, channel(3, 'archive-me', { is_archived: true })],
      [4, channel(4, 'äpfel')],
    ]),
    subscriptions: new Map([
      [1, subscription(1, 'general')],
      [5, subscription(5, 'secret', { invite_only: true })],
    ]),
  };
  const rowNames = (tab: 'subscribed' | 'available' | 'all', filter = '') =>
    browserRows(state, tab, filter).map((row) => `${row.channel.name}${row.subscribed ? '*' : ''}`);

  it('lists visible channels by name, subscribed ones marked, archived left out', () => {
    expect(rowNames('all')).toEqual(['äpfel', 'Design', 'general*', 'secret*']);
    expect(rowNames('subscribed')).toEqual(['general*', 'secret*']);
    expect(rowNames('available')).toEqual(['äpfel', 'Design']);
  });
  it('filters on name and description, ignoring case and accents', () => {
    expect(rowNames('all', 'FONT')).toEqual(['Design']);
    expect(rowNames('all', 'apf')).toEqual(['äpfel']);
    expect(rowNames('all', 'nothing')).toEqual([]);
  });
  it('knows names regardless of case', () => {
    expect(channelNameTaken(state, ' GENERAL ')).toBe(true);
    expect(channelNameTaken(state, 'Secret')).toBe(true);
    expect(channelNameTaken(state, 'new')).toBe(false);
  });
});

describe('topics', () => {
  const userTopics = [
    { stream_id: 1, topic_name: 'Lunch', visibility_policy: Policy.muted, last_updated: 1 },
    { stream_id: 2, topic_name: 'lunch', visibility_policy: Policy.followed, last_updated: 1 },
  ] as const;
  it('finds a policy case-insensitively, per channel', () => {
    expect(topicPolicy([...userTopics], 1, 'lunch')).toBe(Policy.muted);
    expect(topicPolicy([...userTopics], 2, 'LUNCH')).toBe(Policy.followed);
    expect(topicPolicy([...userTopics], 3, 'lunch')).toBe(Policy.inherit);
  });

  const labels = (muted: boolean, policy: 0 | 1 | 2 | 3) =>
    topicChoices(muted, policy).map((c) => `${c.label}→${c.policy}`);
  it('offers mute or unmute, and follow or unfollow, in a channel that is not muted', () => {
    expect(labels(false, 0)).toEqual(['Mute topic→1', 'Follow topic→3']);
    expect(labels(false, 1)).toEqual(['Unmute topic→0', 'Follow topic→3']);
    expect(labels(false, 3)).toEqual(['Mute topic→1', 'Unfollow topic→0']);
  });
  it('offers unmute rather than mute in a muted channel', () => {
    expect(labels(true, 0)).toEqual(['Unmute topic→2', 'Follow topic→3']);
    expect(labels(true, 1)).toEqual(['Unmute topic→2', 'Follow topic→3']);
    expect(labels(true, 2)).toEqual(['Mute topic→0', 'Follow topic→3']);
    expect(labels(true, 3)).toEqual(['Mute topic→0', 'Unfollow topic→0']);
  });
});
