/**
 * An organization with one of everything an export carries, built through
 * the API (as people would): channels with settings and permission groups,
 * subscriptions with properties, messages with topics, edits, moves and a
 * deletion, 1:1, group and self DMs, stars, mentions, alert words, reads
 * out of order, reactions (Unicode and custom emoji), an upload and an
 * avatar, user groups with a subgroup and a group-valued setting, custom
 * profile fields, topic policies, muted users, a scheduled message, a
 * reminder, a saved snippet, linkifiers, playgrounds, a realm setting, a
 * user setting, a status, a bot with an owner and a deactivated user.
 */
import { expect } from 'vitest';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { png, uploadOk } from '../uploads/support.js';

const ok = async (p: Promise<{ status: number; body: unknown }>) => {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Record<string, unknown>;
};

export interface Seeded {
  channels: Record<string, number>;
  messages: Record<string, number>;
  groupId: number;
  subgroupId: number;
  fieldIds: number[];
  deactivatedId: number;
  uploadPathId: string;
}

export async function seedOrganization(t: TestServer): Promise<Seeded> {
  const a = t.accounts;
  const owner = t.as('owner');
  const member = t.as('member');
  const admin = t.as('admin');

  await ok(
    owner.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'general', description: 'Everything' }]),
      principals: JSON.stringify([a.owner.id, a.admin.id, a.member.id, a.moderator.id, a.guest.id]),
    }),
  );
  await ok(
    owner.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'secret plans', description: 'Hush' }]),
      invite_only: 'true',
      history_public_to_subscribers: 'false',
      principals: JSON.stringify([a.owner.id, a.member.id]),
    }),
  );
  const streams = (await ok(owner.get('/streams', { include_all: 'true' }))).streams as {
    name: string;
    stream_id: number;
  }[];
  const channels = Object.fromEntries(streams.map((s) => [s.name, s.stream_id]));
  const general = channels.general!;
  const secret = channels['secret plans']!;

  // Subscription properties.
  await ok(
    member.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([
        { stream_id: general, property: 'color', value: '#abcdef' },
        { stream_id: general, property: 'pin_to_top', value: true },
        { stream_id: secret, property: 'is_muted', value: true },
        { stream_id: secret, property: 'desktop_notifications', value: true },
      ]),
    }),
  );

  // User groups, a subgroup, and a group-valued channel setting.
  await ok(
    owner.post('/user_groups/create', {
      name: 'leads',
      description: 'Team leads',
      members: JSON.stringify([a.admin.id]),
    }),
  );
  await ok(
    owner.post('/user_groups/create', {
      name: 'crew',
      description: 'Everyone on the crew',
      members: JSON.stringify([a.member.id, a.moderator.id]),
    }),
  );
  const groups = (await ok(owner.get('/user_groups'))).user_groups as {
    id: number;
    name: string;
  }[];
  const leads = groups.find((g) => g.name === 'leads')!.id;
  const crew = groups.find((g) => g.name === 'crew')!.id;
  await ok(owner.post(`/user_groups/${crew}/subgroups`, { add: JSON.stringify([leads]) }));
  await ok(owner.patch('/realm', { message_content_edit_limit_seconds: JSON.stringify(3600) }));

  // Alert words before messages, so a message carries has_alert_word.
  await ok(member.post('/users/me/alert_words', { alert_words: JSON.stringify(['pineapple']) }));

  // Messages: topics, a mention, a wildcard mention, an alert word.
  const m: Record<string, number> = {};
  m.hello = await sendToChannel(t, 'owner', general, 'greetings', 'Hello **everyone**!');
  m.mention = await sendToChannel(
    t,
    'admin',
    general,
    'greetings',
    `Hi @**Mel Member|${a.member.id}**`,
  );
  m.wildcard = await sendToChannel(t, 'admin', general, 'plans', '@**all** meeting at noon');
  m.alert = await sendToChannel(t, 'owner', general, 'plans', 'who wants pineapple?');
  m.secret = await sendToChannel(t, 'owner', secret, 'tbd', 'top secret');
  m.toEdit = await sendToChannel(t, 'member', general, 'greetings', 'first draft');
  m.toMove = await sendToChannel(t, 'member', general, 'misc', 'this belongs elsewhere');
  m.toDelete = await sendToChannel(t, 'member', general, 'misc', 'oops');
  m.dm = await sendDirect(t, 'owner', [a.member.id], 'a private word');
  m.groupDm = await sendDirect(t, 'admin', [a.owner.id, a.member.id], 'the three of us');
  m.selfDm = await sendDirect(t, 'member', [a.member.id], 'note to self');
  m.later = await sendToChannel(t, 'moderator', general, 'plans', 'a later one');

  // An upload linked from a message.
  const file = await uploadOk(member, 'quarterly numbers\n', 'report.txt', 'text/plain');
  m.upload = await sendToChannel(t, 'member', general, 'files', `See [report](${file.url})`);
  const picture = await uploadOk(member, await png(300, 200), 'chart.png', 'image/png');
  m.image = await sendToChannel(t, 'member', general, 'files', `[chart](${picture.url})`);

  // Edits, a move and a deletion.
  await ok(member.patch(`/messages/${m.toEdit}`, { content: 'second draft' }));
  await ok(member.patch(`/messages/${m.toEdit}`, { content: 'final draft', topic: 'drafts' }));
  await ok(
    owner.patch(`/messages/${m.toMove}`, { topic: 'moved here', propagate_mode: 'change_one' }),
  );
  await ok(owner.delete(`/messages/${m.toDelete}`));

  // Reactions: Unicode and custom emoji.
  const emojiPng = await png(64, 64);
  await ok(
    owner.post(
      '/realm/emoji/partyparrot',
      { f1: new File([new Uint8Array(emojiPng)], 'parrot.png', { type: 'image/png' }) },
      { encoding: 'multipart' },
    ),
  );
  await ok(member.post(`/messages/${m.hello}/reactions`, { emoji_name: 'smile' }));
  await ok(admin.post(`/messages/${m.hello}/reactions`, { emoji_name: 'partyparrot' }));
  await ok(member.post(`/messages/${m.groupDm}/reactions`, { emoji_name: 'thumbs_up' }));

  // Flags: a star, reading some (out of order), leaving others unread.
  await ok(
    member.post('/messages/flags', {
      messages: JSON.stringify([m.hello]),
      op: 'add',
      flag: 'starred',
    }),
  );
  await ok(
    member.post('/messages/flags', {
      messages: JSON.stringify([m.later, m.dm]),
      op: 'add',
      flag: 'read',
    }),
  );
  await ok(owner.post('/mark_all_as_read'));
  await ok(
    admin.post('/messages/flags', { messages: JSON.stringify([m.hello]), op: 'add', flag: 'read' }),
  );

  // Topic policies, muted users.
  await ok(
    member.post('/user_topics', { stream_id: general, topic: 'plans', visibility_policy: 3 }),
  );
  await ok(
    member.post('/user_topics', { stream_id: general, topic: 'misc', visibility_policy: 1 }),
  );
  await ok(member.post(`/users/me/muted_users/${a.guest.id}`));

  // Custom profile fields and values.
  await ok(
    owner.post('/realm/profile_fields', { name: 'Phone', hint: 'Work phone', field_type: 1 }),
  );
  await ok(owner.post('/realm/profile_fields', { name: 'Mentor', field_type: 6 }));
  const fields = (await ok(owner.get('/realm/profile_fields'))).custom_fields as { id: number }[];
  const fieldIds = fields.map((f) => f.id);
  await ok(
    member.patch('/users/me/profile_data', {
      data: JSON.stringify([
        { id: fieldIds[0], value: '+1 555 0100' },
        { id: fieldIds[1], value: [a.admin.id] },
      ]),
    }),
  );

  // Scheduled message, reminder, saved snippet.
  const future = Math.floor(Date.now() / 1000) + 86_400;
  await ok(
    member.post('/scheduled_messages', {
      type: 'stream',
      to: JSON.stringify(general),
      topic: 'plans',
      content: 'tomorrow!',
      scheduled_delivery_timestamp: future,
    }),
  );
  await ok(
    member.post('/reminders', { message_id: m.hello, scheduled_delivery_timestamp: future + 60 }),
  );
  await ok(member.post('/saved_snippets', { title: 'Sign-off', content: 'Cheers, Mel' }));

  // Organization: linkifier, playground, a setting; a user setting and status.
  // Hearth has no linkifier endpoints yet: the row goes in directly.
  t.server.ctx.db
    .prepare('INSERT INTO realm_linkifiers (pattern, url_template, sort_order) VALUES (?, ?, 0)')
    .run('#(?P<id>[0-9]+)', 'https://tracker.example.com/{id}');
  await ok(
    owner.post('/realm/playgrounds', {
      name: 'Python sandbox',
      pygments_language: 'python',
      url_template: 'https://play.example.com/?code={code}',
    }),
  );
  await ok(member.patch('/settings', { twenty_four_hour_time: 'true', emojiset: 'twitter' }));
  await ok(member.post('/users/me/status', { status_text: 'On a train', emoji_name: 'train' }));

  // An avatar.
  await ok(
    member.post(
      '/users/me/avatar',
      { f1: new File([new Uint8Array(await png(100, 100))], 'me.png', { type: 'image/png' }) },
      { encoding: 'multipart' },
    ),
  );

  // A deactivated user who had sent a message.
  const leaver = await t.createMember('Lee Leaver');
  await ok(
    owner.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'general' }]),
      principals: JSON.stringify([leaver.id]),
    }),
  );
  m.leaver = await sendToChannel(t, leaver, general, 'greetings', 'bye all');
  await ok(owner.delete(`/users/${leaver.id}`));

  // Last, so it does not stop the sends above: an anonymous group as a channel setting.
  await ok(
    owner.patch(`/streams/${general}`, {
      can_send_message_group: JSON.stringify({
        new: { direct_members: [a.owner.id], direct_subgroups: [crew] },
      }),
    }),
  );

  return {
    channels,
    messages: m,
    groupId: crew,
    subgroupId: leads,
    fieldIds,
    deactivatedId: leaver.id,
    uploadPathId: decodeURIComponent(file.url.replace(/^\/user_uploads\//, '')),
  };
}

export type { ApiClient };
