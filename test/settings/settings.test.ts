import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presenceOf } from '../../server/db/queries/presence.js';
import { userById } from '../../server/db/queries/users.js';
import { userSettingDefaults } from '../../server/shared/user-settings.js';
import { type Event, Watcher } from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  FIXTURE_PASSWORD,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { setRealm } from '../messages/send-support.js';

let t: TestServer;
let general: number;

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false });
  general = createChannel(t, { name: 'general', subscribers: [t.accounts.owner.id] });
});
afterAll(() => t.close());

const patch = (who: Account | 'bot' | 'member', params: Record<string, unknown>) =>
  t.as(who).patch('/settings', params);

/** A fresh member, so each test starts from the defaults. */
const fresh = (name = 'Fresh Person') => quickMember(t, name);

async function expectError(
  who: Account,
  params: Record<string, unknown>,
  msg: string,
): Promise<void> {
  const res = await patch(who, params);
  expect(res.status, JSON.stringify(params)).toBe(400);
  expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
}

async function userSettingsOf(who: Account): Promise<Record<string, unknown>> {
  const res = await t.as(who).post('/register', {
    fetch_event_types: ['user_settings'],
    client_capabilities: { user_settings_object: true },
  });
  expect(res.status).toBe(200);
  return res.body.user_settings;
}

/** A queue that reads user_settings events, and one of an older client that does not. */
async function queuesOf(who: Account) {
  return {
    modern: await Watcher.register(t.as(who), {
      client_capabilities: { user_settings_object: true },
    }),
    legacy: await Watcher.register(t.as(who), {}),
  };
}

describe('PATCH /settings validation (Zulip json_change_settings)', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ twenty_four_hour_time: '"yes"' }, 'twenty_four_hour_time is not a boolean'],
    [{ enter_sends: 1 }, 'enter_sends is not a boolean'],
    [{ presence_enabled: 'maybe' }, 'presence_enabled is not valid JSON'],
    [{ presence_enabled: 'null' }, 'presence_enabled is not a boolean'],
    [{ color_scheme: 4 }, 'Invalid color_scheme'],
    [{ color_scheme: 0 }, 'Invalid color_scheme'],
    [{ color_scheme: '"dark"' }, 'color_scheme is not an integer'],
    [{ demote_inactive_streams: 4 }, 'Invalid demote_inactive_streams'],
    [{ web_mark_read_on_scroll_policy: 4 }, 'Invalid web_mark_read_on_scroll_policy'],
    [{ web_channel_default_view: 5 }, 'Invalid web_channel_default_view'],
    [{ user_list_style: 4 }, 'Invalid user_list_style'],
    [
      { web_stream_unreads_count_display_policy: 0 },
      'Invalid web_stream_unreads_count_display_policy',
    ],
    [{ desktop_icon_count_display: 4 }, 'Invalid desktop_icon_count_display'],
    [
      { realm_name_in_email_notifications_policy: 4 },
      'Invalid realm_name_in_email_notifications_policy',
    ],
    [{ automatically_follow_topics_policy: 5 }, 'Invalid automatically_follow_topics_policy'],
    [
      { automatically_unmute_topics_in_muted_streams_policy: 0 },
      'Invalid automatically_unmute_topics_in_muted_streams_policy',
    ],
    [{ email_address_visibility: 6 }, 'Invalid email_address_visibility'],
    [{ email_address_visibility: 0 }, 'Invalid email_address_visibility'],
    [{ web_font_size_px: '[16]' }, 'web_font_size_px is not an integer'],
    [{ web_line_height_percent: 1.5 }, 'web_line_height_percent is not an integer'],
    [{ emojiset: 'apple' }, 'Invalid emojiset'],
    [{ web_home_view: 'recent' }, 'Invalid web_home_view'],
    [{ web_animate_image_previews: 'sometimes' }, 'Invalid web_animate_image_previews'],
    [
      { resolved_topic_notice_auto_read_policy: 'often' },
      'Invalid resolved_topic_notice_auto_read_policy',
    ],
    [{ default_language: 'xx' }, 'Invalid default_language'],
    [{ notification_sound: 'klaxon' }, "Invalid notification sound 'klaxon'"],
    [
      { email_notifications_batching_period_seconds: 0 },
      'Invalid email batching period: 0 seconds',
    ],
    [
      { email_notifications_batching_period_seconds: 604801 },
      'Invalid email batching period: 604801 seconds',
    ],
    [{ timezone: 'Mars/Olympus_Mons' }, 'timezone is not a recognized time zone'],
    [{ timezone: '' }, 'timezone is not a recognized time zone'],
    [{ full_name: 'x'.repeat(101) }, 'Name too long!'],
    [{ full_name: '  ' }, 'Name too short!'],
  ];

  it.each(cases)('refuses %j', async (params, msg) => {
    const user = await fresh();
    await expectError(user, params, msg);
  });

  it('changes nothing when any one value is refused', async () => {
    const user = await fresh();
    await expectError(
      user,
      { enter_sends: true, emojiset: 'twitter', notification_sound: 'klaxon' },
      "Invalid notification sound 'klaxon'",
    );
    const settings = await userSettingsOf(user);
    expect(settings.enter_sends).toBe(false);
    expect(settings.emojiset).toBe('google');
  });

  it('accepts the edge values Zulip accepts', async () => {
    const user = await fresh();
    const res = await patch(user, {
      notification_sound: 'none',
      email_notifications_batching_period_seconds: 604800,
      email_address_visibility: 5,
      web_channel_default_view: 4,
      automatically_follow_topics_policy: 4,
      web_home_view: 'all_messages',
      timezone: 'UTC',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', msg: '' });
    const settings = await userSettingsOf(user);
    expect(settings).toMatchObject({
      notification_sound: 'none',
      email_notifications_batching_period_seconds: 604800,
      email_address_visibility: 5,
      web_channel_default_view: 4,
      automatically_follow_topics_policy: 4,
      web_home_view: 'all_messages',
      timezone: 'UTC',
    });
  });

  it.each(['owner', 'admin', 'moderator', 'member', 'guest'] as const)(
    'lets a %s change their own settings',
    async (role) => {
      const who = t.accounts[role];
      expect((await patch(who, { web_font_size_px: 18 })).status).toBe(200);
      expect((await userSettingsOf(who)).web_font_size_px).toBe(18);
      expect((await patch(who, { web_font_size_px: 16 })).status).toBe(200);
    },
  );

  it('refuses bots', async () => {
    const res = await patch('bot', { enter_sends: true });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('This endpoint does not accept bot requests.');
  });

  it('reports unknown parameters as ignored', async () => {
    const user = await fresh();
    const res = await patch(user, { enter_sends: true, dense_mode_typo: true });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['dense_mode_typo']);
  });
});

/** A valid value other than the default for every setting. */
function otherValue(name: string, value: unknown): unknown {
  const strings: Record<string, string> = {
    default_language: 'de',
    web_home_view: 'recent_topics',
    emojiset: 'twitter',
    web_animate_image_previews: 'always',
    notification_sound: 'ding',
    resolved_topic_notice_auto_read_policy: 'never',
  };
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return name.endsWith('_seconds') ? 300 : value === 1 ? 2 : 1;
  const other = strings[name];
  if (other === undefined) throw new Error(`no other value for ${name}`);
  return other;
}

describe('PATCH /settings changes every setting', () => {
  const names = Object.keys(userSettingDefaults);

  it.each(names)('%s: stored, in register state, announced once', async (name) => {
    const user = await fresh();
    const other = await fresh('Bystander');
    const value = otherValue(name, (userSettingDefaults as Record<string, unknown>)[name]);
    const mine = await Watcher.register(t.as(user), {
      client_capabilities: { user_settings_object: true },
    });
    const theirs = await Watcher.register(t.as(other), {});
    const res = await patch(user, { [name]: value });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await userSettingsOf(user))[name]).toEqual(value);
    const events = (await mine.take('user_settings')) as Event[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'user_settings', op: 'update', property: name, value });
    expect(await theirs.take('user_settings')).toEqual([]);

    // The same value again changes nothing and says nothing.
    expect((await patch(user, { [name]: value })).status).toBe(200);
    expect(await mine.take('user_settings')).toEqual([]);
  });
});

describe('events for clients with and without user_settings_object', () => {
  it('sends legacy display events only to queues without the capability', async () => {
    const user = await fresh();
    const q = await queuesOf(user);
    expect((await patch(user, { high_contrast_mode: true })).status).toBe(200);
    const modern = await q.modern.take();
    const legacy = await q.legacy.take();
    expect(modern.map((e: Event) => e.type)).toEqual(['user_settings']);
    expect(legacy.map((e: Event) => e.type)).toEqual(['user_settings', 'update_display_settings']);
    expect(legacy[1]).toEqual({
      id: legacy[1].id,
      type: 'update_display_settings',
      user: user.email,
      setting_name: 'high_contrast_mode',
      setting: true,
    });
  });

  it('sends legacy notification events for notification settings', async () => {
    const user = await fresh();
    const q = await queuesOf(user);
    expect((await patch(user, { enable_sounds: false, notification_sound: 'ding' })).status).toBe(
      200,
    );
    expect((await q.modern.take()).map((e: Event) => e.type)).toEqual([
      'user_settings',
      'user_settings',
    ]);
    const legacy = await q.legacy.take('update_global_notifications');
    expect(legacy.map((e: Event) => [e.notification_name, e.setting]).sort()).toEqual([
      ['enable_sounds', false],
      ['notification_sound', 'ding'],
    ]);
  });

  it('sends no legacy event for settings newer than the legacy events', async () => {
    const user = await fresh();
    const q = await queuesOf(user);
    expect((await patch(user, { web_font_size_px: 20, send_read_receipts: false })).status).toBe(
      200,
    );
    expect((await q.legacy.take()).map((e: Event) => e.type)).toEqual([
      'user_settings',
      'user_settings',
    ]);
  });

  it('names the language in English for default_language', async () => {
    const user = await fresh();
    const q = await queuesOf(user);
    expect((await patch(user, { default_language: 'de' })).status).toBe(200);
    const [modern] = await q.modern.take();
    expect(modern).toMatchObject({
      property: 'default_language',
      value: 'de',
      language_name: 'German',
    });
    const legacy = await q.legacy.take('update_display_settings');
    expect(legacy).toMatchObject([
      { setting_name: 'default_language', setting: 'de', language_name: 'German' },
    ]);
  });

  it('shows the change in legacy register state', async () => {
    const user = await fresh();
    expect(
      (await patch(user, { left_side_userlist: true, enable_digest_emails: false })).status,
    ).toBe(200);
    const res = await t.as(user).post('/register', {
      fetch_event_types: ['update_display_settings', 'update_global_notifications'],
    });
    expect(res.body.left_side_userlist).toBe(true);
    expect(res.body.enable_digest_emails).toBe(false);
  });
});

describe('timezone', () => {
  it('is stored, announced to the user and to everyone as realm_user', async () => {
    const user = await fresh();
    const other = await fresh('Bystander');
    const q = await queuesOf(user);
    const theirs = await Watcher.register(t.as(other), {});
    expect((await patch(user, { timezone: 'Europe/Berlin' })).status).toBe(200);
    expect((await userSettingsOf(user)).timezone).toBe('Europe/Berlin');
    expect(await q.modern.take('user_settings')).toMatchObject([
      { property: 'timezone', value: 'Europe/Berlin' },
    ]);
    expect(await q.legacy.take('update_display_settings')).toMatchObject([
      { setting_name: 'timezone', setting: 'Europe/Berlin' },
    ]);
    expect(await theirs.take('realm_user')).toMatchObject([
      { op: 'update', person: { user_id: user.id, timezone: 'Europe/Berlin' } },
    ]);
    expect(await theirs.take('user_settings')).toEqual([]);
  });
});

describe('enable_drafts_synchronization', () => {
  const draftCount = (userId: number) =>
    (
      t.server.ctx.db.prepare('SELECT COUNT(*) AS n FROM drafts WHERE user_id = ?').get(userId) as {
        n: number;
      }
    ).n;

  it('turning it off deletes the drafts; turning it on keeps none', async () => {
    const user = await fresh();
    const draft = { type: 'stream', to: [general], topic: 'plans', content: 'soon' };
    expect((await t.as(user).post('/drafts', { drafts: [draft, draft] })).status).toBe(200);
    expect(draftCount(user.id)).toBe(2);
    expect((await patch(user, { enable_drafts_synchronization: false })).status).toBe(200);
    expect(draftCount(user.id)).toBe(0);
    expect((await patch(user, { enable_drafts_synchronization: true })).status).toBe(200);
    expect((await t.as(user).post('/drafts', { drafts: [draft] })).status).toBe(200);
    expect(draftCount(user.id)).toBe(1);
  });

  it('changing another setting keeps the drafts', async () => {
    const user = await fresh();
    const draft = { type: 'stream', to: [general], topic: 'plans', content: 'soon' };
    expect((await t.as(user).post('/drafts', { drafts: [draft] })).status).toBe(200);
    expect((await patch(user, { enter_sends: true })).status).toBe(200);
    expect(draftCount(user.id)).toBe(1);
  });
});

describe('presence_enabled', () => {
  it('goes through presence: one settings event, presence forgotten, others told', async () => {
    const user = await fresh();
    const other = await fresh('Bystander');
    expect((await t.as(user).post('/users/me/presence', { status: 'active' })).status).toBe(200);
    const q = await queuesOf(user);
    const theirs = await Watcher.register(t.as(other), {});
    expect((await patch(user, { presence_enabled: false, enter_sends: true })).status).toBe(200);
    expect(
      (await q.modern.take('user_settings')).map((e: Event) => [e.property, e.value]).sort(),
    ).toEqual([
      ['enter_sends', true],
      ['presence_enabled', false],
    ]);
    expect(await q.legacy.take('update_global_notifications')).toMatchObject([
      { notification_name: 'presence_enabled', setting: false },
    ]);
    expect(presenceOf(t.server.ctx.db, user.id)?.last_active_time).toBeNull();
    expect((await theirs.take('presence')).length).toBe(1);
    const settings = await userSettingsOf(user);
    expect(settings.presence_enabled).toBe(false);
    expect(settings.enter_sends).toBe(true);
  });
});

describe('full_name, email and password', () => {
  it('changes the full name and tells everyone', async () => {
    const user = await fresh('Old Name');
    const other = await fresh('Bystander');
    const theirs = await Watcher.register(t.as(other), {});
    expect((await patch(user, { full_name: '  New Name ' })).status).toBe(200);
    expect(userById(t.server.ctx.db, user.id)?.full_name).toBe('New Name');
    expect(await theirs.take('realm_user')).toMatchObject([
      { op: 'update', person: { user_id: user.id, full_name: 'New Name' } },
    ]);
  });

  it('ignores a name change silently when name changes are disabled, except for admins', async () => {
    setRealm(t, { name_changes_disabled: true });
    try {
      const user = await fresh('Fixed Name');
      expect((await patch(user, { full_name: 'Other Name' })).status).toBe(200);
      expect(userById(t.server.ctx.db, user.id)?.full_name).toBe('Fixed Name');
      const admin = await quickMember(t, 'Admin Name', 200);
      expect((await patch(admin, { full_name: 'Renamed Admin' })).status).toBe(200);
      expect(userById(t.server.ctx.db, admin.id)?.full_name).toBe('Renamed Admin');
    } finally {
      setRealm(t, { name_changes_disabled: false });
    }
  });

  it('changes the password only with the right old password', async () => {
    const user = await t.createMember('Password Person');
    await expectError(user, { new_password: 'a much better secret' }, 'Wrong password!');
    await expectError(
      user,
      { old_password: 'not it', new_password: 'a much better secret' },
      'Wrong password!',
    );
    await expectError(
      user,
      { old_password: FIXTURE_PASSWORD, new_password: 'abc' },
      'New password is too weak!',
    );
    const ok = await patch(user, {
      old_password: FIXTURE_PASSWORD,
      new_password: 'a much better secret',
    });
    expect(ok.status).toBe(200);
    const login = (password: string) =>
      t.anonymous().post('/fetch_api_key', { username: user.email, password });
    expect((await login('a much better secret')).status).toBe(200);
    expect((await login(FIXTURE_PASSWORD)).status).not.toBe(200);
  });

  it('refuses e-mail changes, with Zulip wording when the organization disables them', async () => {
    const user = await fresh();
    expect((await patch(user, { email: ` ${user.email} ` })).status).toBe(200);
    await expectError(
      user,
      { email: 'new@example.com' },
      'Email address changes are not available on this server.',
    );
    setRealm(t, { email_changes_disabled: true });
    try {
      await expectError(
        user,
        { email: 'new@example.com' },
        'Email address changes are disabled in this organization.',
      );
    } finally {
      setRealm(t, { email_changes_disabled: false });
    }
    expect(userById(t.server.ctx.db, user.id)?.delivery_email).toBe(user.email);
  });
});

describe('email_address_visibility', () => {
  it('tells who gains and loses the real address, and everyone a new API e-mail', async () => {
    const user = await fresh();
    const admin = await quickMember(t, 'Watching Admin', 200);
    const member = await fresh('Watching Member');
    const qa = await Watcher.register(t.as(admin), {});
    const qm = await Watcher.register(t.as(member), {});
    const domain = (await t.as(user).post('/register', { fetch_event_types: ['realm'] })).body
      .realm_bot_domain;

    // 1 (everyone) -> 3 (admins): the member loses the address, the API e-mail changes.
    expect((await patch(user, { email_address_visibility: 1 })).status).toBe(200);
    await qa.take();
    await qm.take();
    expect((await patch(user, { email_address_visibility: 3 })).status).toBe(200);
    const avatar = {
      user_id: user.id,
      avatar_source: 'G',
      avatar_url: `/user_avatars/${user.id}.png?version=1`,
      avatar_version: 1,
    };
    expect(await qm.take('realm_user')).toMatchObject([
      { person: { user_id: user.id, delivery_email: null } },
      { person: { user_id: user.id, new_email: `user${user.id}@${domain}` } },
      { person: avatar },
    ]);
    expect(await qa.take('realm_user')).toMatchObject([
      { person: { user_id: user.id, new_email: `user${user.id}@${domain}` } },
      { person: avatar },
    ]);

    // Back to everyone: the avatar event carries the URL even for client_gravatar queues.
    const gravatarClient = await Watcher.register(t.as(member), { client_gravatar: true });
    expect((await patch(user, { email_address_visibility: 1 })).status).toBe(200);
    expect((await gravatarClient.take('realm_user')).at(-1)).toMatchObject({ person: avatar });
    expect((await qm.take('realm_user')).map((e: Event) => Object.keys(e.person)[1])).toEqual([
      'delivery_email',
      'new_email',
      'avatar_source',
    ]);
    expect((await patch(user, { email_address_visibility: 3 })).status).toBe(200);
    await qm.take();
    await qa.take();

    // 3 -> 2 (members): the member gains it; the API e-mail stays a placeholder.
    expect((await patch(user, { email_address_visibility: 2 })).status).toBe(200);
    expect(await qm.take('realm_user')).toMatchObject([
      { person: { user_id: user.id, delivery_email: user.email } },
    ]);
    expect(await qa.take('realm_user')).toEqual([]);
  });
});
