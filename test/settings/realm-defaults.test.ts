/**
 * PATCH /realm/user_settings_defaults (administrators; Zulip's
 * update_realm_user_settings_defaults): a realm_user_settings_defaults
 * event per changed value to everyone, POST /register's
 * realm_user_settings_defaults, and the settings new accounts start with.
 * Also Zulip's legacy PATCH /settings/notifications and /settings/display.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { quickMember } from '../helpers/fixtures.js';
import { type FixtureName, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
const everyone = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  for (const who of everyone) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const change = (who: FixtureName, params: Record<string, unknown>) =>
  t.as(who).patch('/realm/user_settings_defaults', params);

async function defaults(who: FixtureName = 'member') {
  const res = await t.as(who).post('/register', {
    fetch_event_types: ['realm_user_settings_defaults'],
  });
  return res.body.realm_user_settings_defaults;
}

describe('PATCH /realm/user_settings_defaults', () => {
  it('changes the defaults, one event per changed value, to everyone', async () => {
    const before = await defaults();
    expect(before).toMatchObject({ enter_sends: false, web_home_view: 'inbox', color_scheme: 1 });
    expect(before.available_notification_sounds).toContain('zulip');
    const res = await change('admin', {
      enter_sends: true,
      web_home_view: 'recent_topics',
      color_scheme: 1,
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const events = await watchers.take('realm_user_settings_defaults');
    expect(receivers(events)).toEqual(everyone);
    expect(events.guest).toEqual([
      {
        id: expect.any(Number),
        type: 'realm_user_settings_defaults',
        op: 'update',
        property: 'enter_sends',
        value: true,
      },
      {
        id: expect.any(Number),
        type: 'realm_user_settings_defaults',
        op: 'update',
        property: 'web_home_view',
        value: 'recent_topics',
      },
    ]);
    expect(await defaults('guest')).toEqual({
      ...before,
      enter_sends: true,
      web_home_view: 'recent_topics',
    });
  });

  it('new accounts start from them; existing ones keep their own', async () => {
    await change('owner', { twenty_four_hour_time: true, emojiset: 'text' });
    const fresh = await quickMember(t, 'Fresh Person');
    const mine = (await t.as(fresh).post('/register', { fetch_event_types: ['user_settings'] }))
      .body.user_settings;
    expect(mine).toMatchObject({ twenty_four_hour_time: true, emojiset: 'text' });
    const old = (await t.as('member').post('/register', { fetch_event_types: ['user_settings'] }))
      .body.user_settings;
    expect(old).toMatchObject({ twenty_four_hour_time: false, emojiset: 'google' });
    const bot = await t
      .as('member')
      .post('/bots', { full_name: 'Default Bot', short_name: `defaults${Date.now()}` });
    const botClient = {
      id: bot.body.user_id,
      email: bot.body.email ?? '',
      apiKey: bot.body.api_key,
      password: null,
    };
    botClient.email = (await t.as('member').get(`/users/${bot.body.user_id}`)).body.user.email;
    const botSettings = (
      await t.as(botClient).post('/register', { fetch_event_types: ['user_settings'] })
    ).body.user_settings;
    expect(botSettings.twenty_four_hour_time).toBe(true);
  });

  it('telling nothing new tells nobody', async () => {
    const current = await defaults();
    expect((await change('admin', { enter_sends: current.enter_sends })).status).toBe(200);
    expect((await change('admin', {})).status).toBe(200);
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('checks values as PATCH /settings does, and leaves out personal-only settings', async () => {
    expectError(
      await change('admin', { color_scheme: 9 }),
      400,
      'BAD_REQUEST',
      'Invalid color_scheme',
    );
    expectError(
      await change('admin', { web_home_view: 'nowhere' }),
      400,
      'BAD_REQUEST',
      'Invalid web_home_view',
    );
    expectError(
      await change('admin', { notification_sound: 'klaxon' }),
      400,
      'BAD_REQUEST',
      "Invalid notification sound 'klaxon'",
    );
    expectError(
      await change('admin', { enter_sends: 'yes' }),
      400,
      'BAD_REQUEST',
      'enter_sends is not valid JSON',
    );
    const res = await change('admin', { default_language: 'de' });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['default_language'],
    });
    expect((await defaults()).default_language).toBe('en');
  });

  it.each(['moderator', 'member', 'guest', 'bot'] as const)('is refused to %s', async (who) => {
    expectError(
      await change(who, { enter_sends: true }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });
});

describe('PATCH /settings/notifications and /settings/display', () => {
  it('change the caller’s own settings like PATCH /settings', async () => {
    for (const [path, params] of [
      ['/settings/notifications', { enable_sounds: false }],
      ['/settings/display', { high_contrast_mode: true }],
    ] as const) {
      const res = await t.as('member').patch(path, params, { skipSchema: true });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const mine = (await t.as('member').post('/register', { fetch_event_types: ['user_settings'] }))
      .body.user_settings;
    expect(mine).toMatchObject({ enable_sounds: false, high_contrast_mode: true });
  });
});
