import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  // One presence row, so the presences dictionary has an entry to look at.
  const nowSeconds = Math.floor(Date.now() / 1000);
  t.server.ctx.db
    .prepare(
      'INSERT INTO user_presence (user_id, last_active_time, last_connected_time) VALUES (?, ?, ?)',
    )
    .run(t.accounts.member.id, nowSeconds, nowSeconds);
});
afterAll(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The server-side options a queue was registered with (read, not mocked). */
function queueOptions(queueId: string, userId: number) {
  return t.server.ctx.events.get(queueId, userId).options;
}

describe('POST /register: the full initial state', () => {
  // biome-ignore lint/suspicious/noExplicitAny: JSON body
  let body: any;
  beforeAll(async () => {
    const res = await t.as('member').post('/register');
    expect(res.status).toBe(200);
    body = res.body;
  });

  it('has a fresh queue and the version fields', () => {
    expect(body.result).toBe('success');
    expect(body.msg).toBe('');
    expect(body.queue_id).toMatch(UUID);
    expect(body.last_event_id).toBe(-1);
    expect(Number.isInteger(body.zulip_feature_level)).toBe(true);
    expect(body.zulip_feature_level).toBeGreaterThanOrEqual(496);
    expect(body.service_feature_level).toBe(body.zulip_feature_level);
    expect(typeof body.zulip_version).toBe('string');
    expect(body.zulip_version.length).toBeGreaterThan(0);
    expect(typeof body.zulip_merge_base).toBe('string');
  });

  it('has the limits and realm settings clients read', () => {
    expect(body.max_message_length).toBe(10000);
    expect(body.max_topic_length).toBe(60);
    expect(typeof body.max_stream_name_length).toBe('number');
    expect(body.realm_empty_topic_display_name).toEqual(expect.any(String));
    expect(body.realm_empty_topic_display_name.length).toBeGreaterThan(0);
    expect(body.event_queue_longpoll_timeout_seconds).toBe(90);
    expect(body.realm_name).toBe('Test Org');
    expect(typeof body.realm_allow_message_editing).toBe('boolean');
    expect(body).toHaveProperty('realm_message_content_edit_limit_seconds');
    expect(typeof body.realm_allow_edit_history).toBe('boolean');
    expect(body).toHaveProperty('realm_message_retention_days');
    expect(body.realm_url).toBe(t.url);
    expect(body.realm_users).toBeDefined();
  });

  it('lists the active users, the caller included, without is_active keys', () => {
    const ids = body.realm_users.map((u: { user_id: number }) => u.user_id);
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      expect(ids).toContain(t.accounts[who].id);
    }
    const self = body.realm_users.find(
      (u: { user_id: number }) => u.user_id === t.accounts.member.id,
    );
    expect(self).toMatchObject({
      user_id: t.accounts.member.id,
      full_name: 'Mel Member',
      is_bot: false,
      role: 400,
    });
    expect(typeof self.email).toBe('string');
    for (const user of body.realm_users) expect(user).not.toHaveProperty('is_active');
    expect(Array.isArray(body.realm_non_active_users)).toBe(true);
    expect(body.cross_realm_bots).toEqual([]);
    // The caller's own identity, at the top level (zulip-terminal indexes these).
    expect(body.user_id).toBe(t.accounts.member.id);
    expect(body.email).toBe(self.email);
    expect(body.delivery_email).toBe(t.accounts.member.email);
    expect(body.full_name).toBe('Mel Member');
    expect(body.is_admin).toBe(false);
    expect(body.is_owner).toBe(false);
    expect(body.is_guest).toBe(false);
  });

  it('has the system user groups', () => {
    const names = body.realm_user_groups.map((g: { name: string }) => g.name);
    for (const name of [
      'role:internet',
      'role:everyone',
      'role:members',
      'role:fullmembers',
      'role:moderators',
      'role:administrators',
      'role:owners',
      'role:nobody',
    ]) {
      expect(names).toContain(name);
    }
    for (const group of body.realm_user_groups) {
      expect(group.is_system_group).toBe(true);
      expect(Array.isArray(group.members)).toBe(true);
      expect(Array.isArray(group.direct_subgroup_ids)).toBe(true);
    }
    const owners = body.realm_user_groups.find((g: { name: string }) => g.name === 'role:owners');
    expect(owners.members).toContain(t.accounts.owner.id);
  });

  it('has user settings, profile fields, presence, emoji and bots', () => {
    expect(body.user_settings).toMatchObject({
      send_private_typing_notifications: expect.any(Boolean),
      twenty_four_hour_time: expect.any(Boolean),
      pm_content_in_desktop_notifications: expect.any(Boolean),
    });
    expect(Array.isArray(body.custom_profile_fields)).toBe(true);
    expect(body.custom_profile_field_types).toBeDefined();
    expect(body.realm_emoji).toEqual(expect.any(Object));
    expect(Array.isArray(body.realm_emoji)).toBe(false);
    // The member owns the fixture bot, so it is among their realm_bots.
    const bots = body.realm_bots.map((b: { user_id: number }) => b.user_id);
    expect(bots).toEqual([t.accounts.bot.id]);
    expect(body.realm_bots[0]).toMatchObject({ api_key: t.accounts.bot.apiKey, bot_type: 1 });
  });

  it('gives presences in the legacy e-mail-keyed shape', () => {
    const entry = body.presences[t.accounts.member.email];
    expect(entry).toBeDefined();
    expect(entry.aggregated).toMatchObject({ status: 'active', timestamp: expect.any(Number) });
    for (const [client, value] of Object.entries(entry)) {
      if (client === 'aggregated') continue;
      expect(value).toMatchObject({ status: expect.any(String), timestamp: expect.any(Number) });
    }
    expect(typeof body.server_timestamp).toBe('number');
  });

  it('lets every role register', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'guest', 'bot'] as const) {
      const res = await t.as(who).post('/register', { fetch_event_types: ['realm_user'] });
      expect(res.status, who).toBe(200);
      expect(res.body.user_id).toBe(t.accounts[who].id);
    }
  });
});

describe('POST /register: what is fetched and what is queued', () => {
  it('fetch_event_types selects the state keys', async () => {
    const res = await t.as('member').post('/register', { fetch_event_types: ['realm_user'] });
    expect(res.body.realm_users).toBeDefined();
    expect(res.body.realm_non_active_users).toBeDefined();
    expect(res.body.user_id).toBe(t.accounts.member.id);
    expect(res.body).not.toHaveProperty('realm_name');
    expect(res.body).not.toHaveProperty('realm_user_groups');
    expect(res.body).not.toHaveProperty('presences');
    expect(res.body).not.toHaveProperty('user_settings');
    // Always there, whatever was fetched.
    expect(res.body.queue_id).toMatch(UUID);
    expect(res.body.last_event_id).toBe(-1);
    expect(res.body.zulip_feature_level).toBeGreaterThanOrEqual(496);
    expect(typeof res.body.zulip_version).toBe('string');
    // The queue still takes every event type.
    expect(queueOptions(res.body.queue_id, t.accounts.member.id).eventTypes).toBeNull();
  });

  it('fetch_event_types defaults to event_types', async () => {
    const res = await t.as('member').post('/register', { event_types: ['realm'] });
    expect(res.body.realm_name).toBe('Test Org');
    expect(res.body).not.toHaveProperty('realm_users');
    expect(res.body).not.toHaveProperty('presences');
    const types = queueOptions(res.body.queue_id, t.accounts.member.id).eventTypes;
    expect(types && [...types]).toEqual(['realm']);
  });

  it('fetch_event_types wins over event_types for the state, not for the queue', async () => {
    const res = await t.as('member').post('/register', {
      event_types: ['message'],
      fetch_event_types: ['realm_user_groups', 'presence'],
    });
    expect(res.body.realm_user_groups).toBeDefined();
    expect(res.body.presences).toBeDefined();
    expect(res.body).not.toHaveProperty('realm_users');
    expect(res.body).not.toHaveProperty('realm_name');
    const types = queueOptions(res.body.queue_id, t.accounts.member.id).eventTypes;
    expect(types && [...types]).toEqual(['message']);
  });

  it('an empty fetch_event_types fetches nothing but still registers', async () => {
    const res = await t.as('member').post('/register', { fetch_event_types: [] });
    expect(res.status).toBe(200);
    expect(res.body.queue_id).toMatch(UUID);
    expect(res.body).not.toHaveProperty('realm_users');
    expect(res.body).not.toHaveProperty('realm_name');
  });

  it('treats the literal event_types=null (zulip-js) as every type', async () => {
    const res = await t
      .as('member')
      .post('/register', { event_types: 'null' }, { encoding: 'multipart' });
    expect(res.status).toBe(200);
    expect(res.body.realm_name).toBe('Test Org');
    expect(res.body.realm_users).toBeDefined();
    expect(queueOptions(res.body.queue_id, t.accounts.member.id).eventTypes).toBeNull();
  });

  it('ignores unknown event type names', async () => {
    const res = await t.as('member').post('/register', {
      event_types: ['no_such_event', 'realm_user'],
    });
    expect(res.status).toBe(200);
    expect(res.body.realm_users).toBeDefined();
    expect(res.body).not.toHaveProperty('realm_name');
  });

  it('rejects event_types that are not a JSON list of strings', async () => {
    const bad = await t.as('member').post('/register', { event_types: '[message' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(bad.body.msg).toBe('event_types is not valid JSON');
    const notList = await t.as('member').post('/register', { event_types: { a: 1 } });
    expect(notList.status).toBe(400);
    expect(notList.body.msg).toBe('event_types is not a list');
  });

  it('gives each registration its own queue', async () => {
    const a = await t.as('member').post('/register', { fetch_event_types: [] });
    const b = await t.as('member').post('/register', { fetch_event_types: [] });
    expect(a.body.queue_id).not.toBe(b.body.queue_id);
  });
});

describe('POST /register: narrow', () => {
  it('accepts the legacy list-of-lists form', async () => {
    const res = await t.as('member').post('/register', {
      fetch_event_types: [],
      narrow: [
        ['stream', 'Denmark'],
        ['topic', 'castle'],
      ],
    });
    expect(res.status).toBe(200);
    expect(queueOptions(res.body.queue_id, t.accounts.member.id).narrow).toEqual([
      { operator: 'stream', operand: 'Denmark', negated: false },
      { operator: 'topic', operand: 'castle', negated: false },
    ]);
  });

  it("takes [operator, operand] string pairs only, as Zulip's NarrowT does", async () => {
    const refused = async (narrow: unknown, msg: string) => {
      const res = await t.as('member').post('/register', { fetch_event_types: [], narrow });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg });
    };
    await refused([{ operator: 'channel', operand: 'Denmark' }], 'narrow[0] is not a list');
    await refused([['stream', 5]], 'narrow[0][1] is not a string');
    await refused({ stream: 'Denmark' }, 'narrow is not a list');
  });

  it('accepts the empty narrow that the python bindings always send', async () => {
    const res = await t.as('member').post('/register', { narrow: [], event_types: ['message'] });
    expect(res.status).toBe(200);
    expect(queueOptions(res.body.queue_id, t.accounts.member.id).narrow).toEqual([]);
  });

  it('refuses operators a queue cannot filter on', async () => {
    const before = t.server.ctx.events.queueCount;
    for (const [operator, operand] of [
      ['search', 'x'],
      ['dm', 'a@example.com'],
    ]) {
      const res = await t.as('member').post('/register', { narrow: [[operator, operand]] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
      expect(res.body.msg).toBe(`Operator ${operator} not supported.`);
    }
    const followed = await t.as('member').post('/register', { narrow: [['is', 'followed']] });
    expect(followed.status).toBe(400);
    expect(followed.body.msg).toBe('Operand followed not supported.');
    // A refused registration leaves no queue behind.
    expect(t.server.ctx.events.queueCount).toBe(before);
  });

  it('rejects a narrow that is not valid JSON', async () => {
    const res = await t.as('member').post('/register', { narrow: '[["stream"' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(res.body.msg).toBe('narrow is not valid JSON');
  });
});

describe('POST /register: client options', () => {
  it('parses client_capabilities', async () => {
    const res = await t.as('member').post('/register', {
      fetch_event_types: [],
      client_capabilities: {
        notification_settings_null: true,
        empty_topic_name: true,
        user_settings_object: true,
        some_future_capability: true,
      },
    });
    expect(res.status).toBe(200);
    const caps = queueOptions(res.body.queue_id, t.accounts.member.id).capabilities;
    expect(caps.empty_topic_name).toBe(true);
    expect(caps.notification_settings_null).toBe(true);
    expect(caps.user_settings_object).toBe(true);
    expect(caps.bulk_message_deletion).toBe(false);
    expect(caps.simplified_presence_events).toBe(false);
  });

  it('defaults every capability to false (no client sends them)', async () => {
    const res = await t.as('member').post('/register', { fetch_event_types: [] });
    const caps = queueOptions(res.body.queue_id, t.accounts.member.id).capabilities;
    for (const value of Object.values(caps)) expect(value).toBe(false);
  });

  it('rejects client_capabilities that are not valid JSON', async () => {
    const res = await t.as('member').post('/register', { client_capabilities: '{empty_topic' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(res.body.msg).toBe('client_capabilities is not valid JSON');
    const notDict = await t.as('member').post('/register', { client_capabilities: [1] });
    expect(notDict.status).toBe(400);
    expect(notDict.body.code).toBe('BAD_REQUEST');
  });

  it('user_settings_object drops the legacy flat settings', async () => {
    const legacy = await t.as('member').post('/register', {
      fetch_event_types: ['user_settings', 'update_display_settings'],
    });
    expect(legacy.body.user_settings).toBeDefined();
    expect(typeof legacy.body.twenty_four_hour_time).toBe('boolean');
    const modern = await t.as('member').post('/register', {
      fetch_event_types: ['user_settings', 'update_display_settings'],
      client_capabilities: { notification_settings_null: false, user_settings_object: true },
    });
    expect(modern.body.user_settings).toBeDefined();
    expect(modern.body).not.toHaveProperty('twenty_four_hour_time');
  });

  it('records apply_markdown and slim_presence on the queue', async () => {
    const res = await t.as('member').post('/register', {
      fetch_event_types: [],
      apply_markdown: true,
      client_gravatar: false,
      slim_presence: true,
    });
    const options = queueOptions(res.body.queue_id, t.accounts.member.id);
    expect(options.applyMarkdown).toBe(true);
    expect(options.slimPresence).toBe(true);
    const defaults = await t.as('member').post('/register', { fetch_event_types: [] });
    const d = queueOptions(defaults.body.queue_id, t.accounts.member.id);
    expect(d.applyMarkdown).toBe(false);
    expect(d.slimPresence).toBe(false);
  });

  it('avatars are hosted by Hearth: a URL whatever client_gravatar says', async () => {
    for (const client_gravatar of [true, false]) {
      const res = await t.as('member').post('/register', {
        fetch_event_types: ['realm_user'],
        client_gravatar,
      });
      const owner = res.body.realm_users.find(
        (u: { user_id: number }) => u.user_id === t.accounts.owner.id,
      );
      expect(owner.avatar_url).toMatch(
        new RegExp(`^/user_avatars/${t.accounts.owner.id}\\.png\\?version=\\d+$`),
      );
      expect(res.body.avatar_url).toBe(`/user_avatars/${t.accounts.member.id}.png?version=1`);
      expect(res.body.avatar_url_medium).toBe(
        `/user_avatars/${t.accounts.member.id}-medium.png?version=1`,
      );
    }
  });

  it('slim_presence keys presences by user id', async () => {
    const res = await t.as('member').post('/register', {
      fetch_event_types: ['presence'],
      slim_presence: true,
    });
    const entry = res.body.presences[String(t.accounts.member.id)];
    expect(entry).toMatchObject({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    expect(res.body.presences).not.toHaveProperty(t.accounts.member.email);
  });

  it('rejects booleans that are not JSON true/false', async () => {
    const res = await t.as('member').post('/register', { apply_markdown: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('apply_markdown is not valid JSON');
  });

  it('refuses all_public_streams for guests', async () => {
    const res = await t.as('guest').post('/register', { all_public_streams: true });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('User not authorized for this query');
  });
});

describe('POST /register: encodings', () => {
  it('accepts multipart bodies (zulip-js) and urlencoded bodies (python)', async () => {
    const params = {
      event_types: ['realm_user'],
      narrow: [['stream', 'general']],
      client_capabilities: { notification_settings_null: false, empty_topic_name: true },
      apply_markdown: true,
    };
    for (const encoding of ['form', 'multipart', 'query'] as const) {
      const res = await t.as('member').post('/register', params, { encoding });
      expect(res.status, encoding).toBe(200);
      expect(res.body.realm_users, encoding).toBeDefined();
      expect(res.body, encoding).not.toHaveProperty('realm_name');
      const options = queueOptions(res.body.queue_id, t.accounts.member.id);
      expect(options.applyMarkdown, encoding).toBe(true);
      expect(options.capabilities.empty_topic_name, encoding).toBe(true);
      expect(options.narrow[0]?.operand, encoding).toBe('general');
    }
  });

  it('lists unknown parameters as ignored instead of failing', async () => {
    const res = await t.as('member').post('/register', {
      fetch_event_types: [],
      no_such_parameter: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['no_such_parameter']);
  });

  it('needs credentials', async () => {
    const res = await t.anonymous().post('/register');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });
});
