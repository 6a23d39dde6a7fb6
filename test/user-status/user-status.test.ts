import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { presenceOf } from '../../server/db/queries/presence.js';
import { setUserActive, setUserSettings, userById } from '../../server/db/queries/users.js';
import { mergeUserSettings } from '../../server/shared/user-settings.js';
import { type EventsByName, receivers, Watcher, Watchers } from '../helpers/event-queues.js';
import type { Account, FixtureName, RequestOptions, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';
import { FakeClock } from '../messages/send-support.js';

const clock = new FakeClock();
const nowSeconds = () => Math.floor(clock.ms / 1000);

let t: TestServer;
/** Deactivated after registering a queue: gets no events, appears nowhere. */
let gone: Account;
let goneQueueId: string;
let watchers: Watchers;
let partyParrot: number;
let oldParrot: number;

/** Every fixture's queue; the member also has one that reads user_settings events. */
const EVERYONE = ['admin', 'bot', 'guest', 'member', 'member:modern', 'moderator', 'owner'];

beforeAll(async () => {
  t = await startTestServer({ now: clock.now });
  watchers = new Watchers(t);
  gone = await t.createMember('Gail Gone');
  for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
    await watchers.add(who);
  }
  await watchers.add('member:modern', 'member', {
    client_capabilities: { user_settings_object: true },
  });
  goneQueueId = (await Watcher.register(t.as(gone), {}, 'gone')).queueId;
  setUserActive(t.server.ctx.db, gone.id, false);
  const addEmoji = (name: string, deactivated: number) =>
    Number(
      t.server.ctx.db
        .prepare(
          'INSERT INTO realm_emoji (name, author_id, file_name, deactivated) VALUES (?, ?, ?, ?)',
        )
        .run(name, t.accounts.owner.id, `${name}.gif`, deactivated).lastInsertRowid,
    );
  partyParrot = addEmoji('party_parrot', 0);
  oldParrot = addEmoji('old_parrot', 1);
});
afterAll(() => t.close());

beforeEach(async () => {
  // Each test starts from nobody having a status, and everyone sharing presence.
  t.server.ctx.db.prepare('DELETE FROM user_status').run();
  for (const account of Object.values(t.accounts))
    setUserSettings(t.server.ctx.db, account.id, '{}');
  await watchers.clear();
});

type Who = FixtureName | Account;
const setOwn = (who: Who, params: Record<string, unknown>, options?: RequestOptions) =>
  t.as(who).post('/users/me/status', params, options);
const setFor = (who: Who, userId: number, params: Record<string, unknown>) =>
  t.as(who).post(`/users/${userId}/status`, params);
const getStatus = async (userId: number, who: Who = 'owner', options?: RequestOptions) => {
  const res = await t.as(who).get(`/users/${userId}/status`, {}, options);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.status;
};
const registeredStatuses = async (who: Who = 'owner') => {
  const res = await t.as(who).post('/register', { fetch_event_types: ['user_status'] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.user_status;
};
const stored = (userId: number) =>
  t.server.ctx.db
    .prepare(
      'SELECT status_text, emoji_name, emoji_code, reaction_type, timestamp FROM user_status WHERE user_id = ?',
    )
    .get(userId);
const presenceEnabled = (userId: number) =>
  mergeUserSettings(userById(t.server.ctx.db, userId)!.settings).presence_enabled;

async function expectOk(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ result: 'success', msg: '' });
}

async function expectError(res: { status: number; body: unknown }, msg: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg });
}

/** The user_status events of a take(), with the queue-local ids dropped. */
function statusEvents(events: EventsByName): Record<string, unknown[]> {
  return Object.fromEntries(
    Object.entries(events).map(([name, list]) => [
      name,
      list.filter((e) => e.type === 'user_status').map(({ id: _id, ...rest }) => rest),
    ]),
  );
}

/** Every queue got exactly `event` as its only user_status event; the deactivated user's got nothing. */
async function expectStatusEventToEveryone(event: Record<string, unknown>) {
  const events = await watchers.take();
  const byQueue = statusEvents(events);
  expect(receivers(events, (e) => e.type === 'user_status')).toEqual(EVERYONE);
  for (const name of EVERYONE) expect(byQueue[name], name).toEqual([event]);
  expect(t.server.ctx.events.get(goneQueueId, gone.id).pending()).toEqual([]);
  return events;
}

async function expectNoEvents() {
  const events = await watchers.take();
  expect(receivers(events)).toEqual([]);
}

describe('POST /users/me/status', () => {
  it('sets text and emoji by name, tells every active user, and shows in GET and register', async () => {
    const member = t.accounts.member;
    await expectOk(await setOwn('member', { status_text: 'out to lunch', emoji_name: 'car' }));
    expect(stored(member.id)).toEqual({
      status_text: 'out to lunch',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
      timestamp: nowSeconds(),
    });
    await expectStatusEventToEveryone({
      type: 'user_status',
      user_id: member.id,
      status_text: 'out to lunch',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    const expected = {
      status_text: 'out to lunch',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    };
    expect(await getStatus(member.id)).toEqual(expected);
    // Everyone sees everyone's status, guests and bots included.
    for (const who of ['owner', 'guest', 'bot'] as const) {
      expect(await registeredStatuses(who)).toEqual({ [member.id]: expected });
    }
  });

  it('changes only what is passed, and the event carries only that', async () => {
    const member = t.accounts.member;
    await setOwn('member', { status_text: 'in a meeting', emoji_name: 'calendar' });
    await watchers.clear();

    await expectOk(await setOwn('member', { status_text: 'on the phone' }));
    await expectStatusEventToEveryone({
      type: 'user_status',
      user_id: member.id,
      status_text: 'on the phone',
    });
    expect(await getStatus(member.id)).toEqual({
      status_text: 'on the phone',
      emoji_name: 'calendar',
      emoji_code: '1f4c6',
      reaction_type: 'unicode_emoji',
    });

    await expectOk(await setOwn('member', { emoji_name: 'tada' }));
    await expectStatusEventToEveryone({
      type: 'user_status',
      user_id: member.id,
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
    });
    expect(await getStatus(member.id)).toEqual({
      status_text: 'on the phone',
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
    });
  });

  it('clears the text with an empty string and the emoji with an empty name', async () => {
    const member = t.accounts.member;
    await setOwn('member', { status_text: 'busy', emoji_name: 'tada' });
    await watchers.clear();

    await expectOk(await setOwn('member', { status_text: '' }));
    await expectStatusEventToEveryone({ type: 'user_status', user_id: member.id, status_text: '' });
    expect(await getStatus(member.id)).toEqual({
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
    });

    // An empty name clears the emoji whatever code and type come with it.
    await expectOk(
      await setOwn('member', {
        emoji_name: '',
        emoji_code: String(partyParrot),
        reaction_type: 'realm_emoji',
      }),
    );
    await expectStatusEventToEveryone({
      type: 'user_status',
      user_id: member.id,
      emoji_name: '',
      emoji_code: '',
      reaction_type: 'unicode_emoji',
    });
    expect(stored(member.id)).toEqual(
      expect.objectContaining({
        status_text: '',
        emoji_name: '',
        emoji_code: '',
        reaction_type: 'unicode_emoji',
      }),
    );
    // A status that says nothing is {} to GET and left out of register.
    expect(await getStatus(member.id)).toEqual({});
    expect(await registeredStatuses()).toEqual({});
  });

  it('answers {} for a user who never set a status, and register lists nobody', async () => {
    expect(await getStatus(t.accounts.moderator.id)).toEqual({});
    expect(await registeredStatuses()).toEqual({});
  });

  it('strips surrounding whitespace and allows 60 code points, astral characters counting once', async () => {
    const member = t.accounts.member;
    const sixty = `${'😀'.repeat(30)}${'é'.repeat(30)}`;
    await expectOk(await setOwn('member', { status_text: `  \u3000${sixty}\n\t` }));
    expect(await getStatus(member.id)).toEqual({ status_text: sixty });
    const events = await watchers.take('user_status');
    expect(events.owner).toEqual([
      { id: expect.any(Number), type: 'user_status', user_id: member.id, status_text: sixty },
    ]);

    // Zulip measures after trimming White_Space, then strips as Python does (U+001C..U+001F too).
    await expectOk(await setOwn('member', { status_text: '\x85 hi \x1c' }));
    expect(await getStatus(member.id)).toEqual({ status_text: 'hi' });
    await expectError(
      await setOwn('member', { status_text: `\x1c${'a'.repeat(60)}` }),
      'status_text is too long (limit: 60 characters)',
    );

    // Only whitespace: the text is cleared.
    await expectOk(await setOwn('member', { status_text: '   ' }));
    expect(await getStatus(member.id)).toEqual({});
  });

  it('refuses text longer than 60 code points', async () => {
    for (const text of ['x'.repeat(61), `${'😀'.repeat(60)}x`, ` ${'a'.repeat(61)} `]) {
      await expectError(
        await setOwn('member', { status_text: text, emoji_name: 'tada' }),
        'status_text is too long (limit: 60 characters)',
      );
    }
    expect(stored(t.accounts.member.id)).toBeUndefined();
    await expectNoEvents();
  });

  it('needs at least one new value', async () => {
    for (const params of [
      {},
      { emoji_code: '1f697' },
      { reaction_type: 'unicode_emoji' },
      { emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    ]) {
      await expectError(await setOwn('member', params), 'Client did not pass any new values.');
    }
    await expectNoEvents();
  });

  it('needs emoji_name with emoji_code or reaction_type', async () => {
    const msg = 'Client must pass emoji_name if they pass either emoji_code or reaction_type.';
    await expectError(await setOwn('member', { status_text: 'x', emoji_code: '1f4bb' }), msg);
    await expectError(
      await setOwn('member', { status_text: 'x', reaction_type: 'unicode_emoji' }),
      msg,
    );
    await expectError(await setOwn('member', { away: true, emoji_code: '1f4bb' }), msg);
    expect(presenceEnabled(t.accounts.member.id)).toBe(true);
    // Empty values say nothing, so they need no name.
    await expectOk(await setOwn('member', { status_text: 'x', emoji_code: '', reaction_type: '' }));
  });

  it('validates the emoji in each namespace', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
      // A code without a type still looks the name up for the type.
      [
        { emoji_name: 'no_such_emoji', emoji_code: '1f697' },
        "Emoji 'no_such_emoji' does not exist",
      ],
      // A deactivated custom emoji is not found by name.
      [{ emoji_name: 'old_parrot' }, "Emoji 'old_parrot' does not exist"],
      [
        { emoji_name: 'car', emoji_code: '1f44d', reaction_type: 'unicode_emoji' },
        'Invalid emoji name.',
      ],
      [{ emoji_name: 'car', emoji_code: '1f44d' }, 'Invalid emoji name.'],
      [
        { emoji_name: 'car', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' },
        'Invalid emoji code.',
      ],
      [
        { emoji_name: 'party_parrot', emoji_code: '999999', reaction_type: 'realm_emoji' },
        'Invalid custom emoji.',
      ],
      [
        { emoji_name: 'party_parrot', emoji_code: 'abc', reaction_type: 'realm_emoji' },
        'Invalid custom emoji.',
      ],
      [
        { emoji_name: 'car', emoji_code: String(partyParrot), reaction_type: 'realm_emoji' },
        'Invalid custom emoji name.',
      ],
      [
        { emoji_name: 'old_parrot', emoji_code: String(oldParrot), reaction_type: 'realm_emoji' },
        'This custom emoji has been deactivated.',
      ],
      [
        { emoji_name: 'zulip', emoji_code: 'hearth', reaction_type: 'zulip_extra_emoji' },
        'Invalid emoji code.',
      ],
      [
        { emoji_name: 'car', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' },
        'Invalid emoji name.',
      ],
      [
        { emoji_name: 'car', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' },
        'Invalid emoji name.',
      ],
      [
        { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'custom_emoji' },
        'Invalid emoji type.',
      ],
      [{ emoji_name: 'car', reaction_type: 'custom_emoji' }, 'Invalid emoji type.'],
    ];
    for (const [params, msg] of cases) {
      await expectError(await setOwn('member', { status_text: 'x', ...params }), msg);
    }
    expect(stored(t.accounts.member.id)).toBeUndefined();
    await expectNoEvents();
  });

  it('knows custom emoji, the zulip emoji and every name of a Unicode emoji', async () => {
    const member = t.accounts.member;
    const emojiOf = async (params: Record<string, unknown>, options?: RequestOptions) => {
      await expectOk(await setOwn('member', params, options));
      const { emoji_name, emoji_code, reaction_type } = await getStatus(
        member.id,
        'owner',
        options,
      );
      return { emoji_name, emoji_code, reaction_type };
    };
    expect(await emojiOf({ emoji_name: 'party_parrot' })).toEqual({
      emoji_name: 'party_parrot',
      emoji_code: String(partyParrot),
      reaction_type: 'realm_emoji',
    });
    expect(
      await emojiOf({
        emoji_name: 'party_parrot',
        emoji_code: String(partyParrot),
        reaction_type: 'realm_emoji',
      }),
    ).toEqual({
      emoji_name: 'party_parrot',
      emoji_code: String(partyParrot),
      reaction_type: 'realm_emoji',
    });
    expect(await emojiOf({ emoji_name: 'zulip' })).toEqual({
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
    });
    // An alias is kept as the name the user chose.
    expect(await emojiOf({ emoji_name: '+1' })).toEqual({
      emoji_name: '+1',
      emoji_code: '1f44d',
      reaction_type: 'unicode_emoji',
    });
    expect(
      await emojiOf({
        emoji_name: 'thumbs_up',
        emoji_code: '1f44d',
        reaction_type: 'unicode_emoji',
      }),
    ).toEqual({ emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
  });

  it('is for humans only', async () => {
    await expectError(
      await setOwn('bot', { status_text: 'beep' }),
      'This endpoint does not accept bot requests.',
    );
    expect(stored(t.accounts.bot.id)).toBeUndefined();
    await expectNoEvents();
  });

  it('lets every human role set their own status', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest'] as const) {
      await expectOk(await setOwn(who, { status_text: `I am ${who}` }));
    }
    const statuses = await registeredStatuses('guest');
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest'] as const) {
      expect(statuses[t.accounts[who].id]).toEqual({ status_text: `I am ${who}` });
    }
  });
});

describe('away (deprecated: the inverse of presence_enabled)', () => {
  it('turns presence off, tells the user their setting changed and everyone the status', async () => {
    const member = t.accounts.member;
    // Long after joining: a user never seen active reads as active at their join time.
    clock.advance(1000);
    await expectOk(await setOwn('member', { away: true }));
    expect(presenceEnabled(member.id)).toBe(false);
    const events = await watchers.take();

    // The setting's events go to the user alone; the legacy form only to queues without user_settings_object.
    expect(receivers(events, (e) => e.type === 'user_settings')).toEqual([
      'member',
      'member:modern',
    ]);
    expect(events['member:modern']!.find((e) => e.type === 'user_settings')).toEqual({
      id: expect.any(Number),
      type: 'user_settings',
      op: 'update',
      property: 'presence_enabled',
      value: false,
    });
    expect(receivers(events, (e) => e.type === 'update_global_notifications')).toEqual(['member']);
    expect(events.member!.find((e) => e.type === 'update_global_notifications')).toEqual({
      id: expect.any(Number),
      type: 'update_global_notifications',
      user: member.email,
      notification_name: 'presence_enabled',
      setting: false,
    });

    // Everyone, the user too (Zulip's send_presence_changed), sees the user as
    // last seen well before the offline threshold.
    expect(receivers(events, (e) => e.type === 'presence')).toEqual(EVERYONE);
    const lastSeen = nowSeconds() - 200 - 120;
    expect(presenceOf(t.server.ctx.db, member.id)).toEqual(
      expect.objectContaining({ last_active_time: null, last_connected_time: lastSeen }),
    );
    expect(events.owner!.find((e) => e.type === 'presence').presence.website).toEqual(
      expect.objectContaining({ status: 'idle', timestamp: lastSeen }),
    );

    const byQueue = statusEvents(events);
    for (const name of EVERYONE) {
      expect(byQueue[name], name).toEqual([
        { type: 'user_status', user_id: member.id, away: true },
      ]);
    }
    // The setting events come before the status event, as in Zulip.
    const types = events.member!.map((e) => e.type);
    expect(types.indexOf('user_settings')).toBeLessThan(types.indexOf('user_status'));

    expect(await getStatus(member.id)).toEqual({ away: true });
    expect(await registeredStatuses()).toEqual({ [member.id]: { away: true } });
    const settings = await t.as('member').post('/register', {
      fetch_event_types: ['user_settings'],
      client_capabilities: { user_settings_object: true },
    });
    expect(settings.body.user_settings.presence_enabled).toBe(false);

    // Presence reports are not recorded while away.
    await t.as('member').post('/users/me/presence', { status: 'active' });
    expect(presenceOf(t.server.ctx.db, member.id)!.last_connected_time).toBe(lastSeen);
  });

  it('away=false turns presence back on: the user is online now', async () => {
    const member = t.accounts.member;
    await setOwn('member', { away: true, status_text: 'gone fishing' });
    await watchers.clear();
    clock.advance(30);

    await expectOk(await setOwn('member', { away: false }));
    expect(presenceEnabled(member.id)).toBe(true);
    const events = await watchers.take();
    expect(events['member:modern']!.find((e) => e.type === 'user_settings').value).toBe(true);
    expect(events.member!.find((e) => e.type === 'update_global_notifications').setting).toBe(true);
    expect(presenceOf(t.server.ctx.db, member.id)).toEqual(
      expect.objectContaining({
        last_active_time: nowSeconds(),
        last_connected_time: nowSeconds(),
      }),
    );
    expect(events.owner!.find((e) => e.type === 'presence').presence.website).toEqual(
      expect.objectContaining({ status: 'active', timestamp: nowSeconds() }),
    );
    expect(statusEvents(events).owner).toEqual([
      { type: 'user_status', user_id: member.id, away: false },
    ]);
    expect(await getStatus(member.id)).toEqual({ status_text: 'gone fishing' });
    expect(await registeredStatuses()).toEqual({ [member.id]: { status_text: 'gone fishing' } });
  });

  it('is shown only alongside a status row, as in Zulip', async () => {
    const member = t.accounts.member;
    await setOwn('member', { away: true });
    expect(await getStatus(member.id)).toEqual({ away: true });
    t.server.ctx.db.prepare('DELETE FROM user_status').run();
    expect(await getStatus(member.id)).toEqual({});
    expect(await registeredStatuses()).toEqual({});
    await setOwn('member', { away: false });
  });

  it('must be a boolean', async () => {
    await expectError(await setOwn('member', { away: 'yes' }), 'away is not valid JSON');
    await expectError(await setOwn('member', { away: 1 }), 'away is not a boolean');
    expect(presenceEnabled(t.accounts.member.id)).toBe(true);
    await expectNoEvents();
  });
});

describe('POST /users/{user_id}/status', () => {
  it('lets administrators and owners set another user status', async () => {
    const member = t.accounts.member;
    await expectOk(
      await setFor('admin', member.id, { status_text: 'on leave', emoji_name: 'palm_tree' }),
    );
    await expectStatusEventToEveryone({
      type: 'user_status',
      user_id: member.id,
      status_text: 'on leave',
      emoji_name: 'palm_tree',
      emoji_code: '1f334',
      reaction_type: 'unicode_emoji',
    });
    expect(await getStatus(member.id)).toEqual({
      status_text: 'on leave',
      emoji_name: 'palm_tree',
      emoji_code: '1f334',
      reaction_type: 'unicode_emoji',
    });

    await expectOk(await setFor('owner', t.accounts.admin.id, { status_text: 'admin away' }));
    await expectOk(await setFor('admin', t.accounts.owner.id, { status_text: 'owner away' }));
    await expectOk(await setFor('admin', t.accounts.admin.id, { status_text: 'self' }));
    expect(await registeredStatuses()).toEqual({
      [member.id]: expect.objectContaining({ status_text: 'on leave' }),
      [t.accounts.admin.id]: { status_text: 'self' },
      [t.accounts.owner.id]: { status_text: 'owner away' },
    });
  });

  it('refuses everyone else with BAD_REQUEST, even for their own id', async () => {
    for (const who of ['moderator', 'member', 'guest'] as const) {
      await expectError(
        await setFor(who, t.accounts.member.id, { status_text: 'hijacked' }),
        'Insufficient permission',
      );
      await expectError(
        await setFor(who, t.accounts[who].id, { status_text: 'mine' }),
        'Insufficient permission',
      );
    }
    await expectError(
      await setFor('bot', t.accounts.member.id, { status_text: 'beep' }),
      'This endpoint does not accept bot requests.',
    );
    expect(await registeredStatuses()).toEqual({});
    await expectNoEvents();
  });

  it('needs an existing, active, human target', async () => {
    await expectError(await setFor('admin', 999999, { status_text: 'x' }), 'No such user');
    await expectError(
      await setFor('admin', t.accounts.bot.id, { status_text: 'x' }),
      'No such user',
    );
    await expectError(await setFor('admin', gone.id, { status_text: 'x' }), 'User is deactivated');
    // The target is looked up before the caller's role is checked.
    await expectError(await setFor('member', 999999, { status_text: 'x' }), 'No such user');
    await expectNoEvents();
  });

  it('applies the same validation', async () => {
    const member = t.accounts.member.id;
    await expectError(await setFor('admin', member, {}), 'Client did not pass any new values.');
    await expectError(
      await setFor('admin', member, { status_text: 'y'.repeat(61) }),
      'status_text is too long (limit: 60 characters)',
    );
    // The text is checked before the caller's role, as Zulip's parameter parsing comes first.
    await expectError(
      await setFor('member', member, { status_text: 'y'.repeat(61) }),
      'status_text is too long (limit: 60 characters)',
    );
    await expectError(
      await setFor('admin', member, { status_text: 'x', reaction_type: 'realm_emoji' }),
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    );
    await expectError(
      await setFor('admin', member, { emoji_name: 'nope' }),
      "Emoji 'nope' does not exist",
    );
    await expectError(
      await setFor('admin', member, {
        emoji_name: 'car',
        emoji_code: '1f44d',
        reaction_type: 'unicode_emoji',
      }),
      'Invalid emoji name.',
    );
    await expectError(
      await setFor('admin', member, {
        emoji_name: 'party_parrot',
        emoji_code: '424242',
        reaction_type: 'realm_emoji',
      }),
      'Invalid custom emoji.',
    );
    await expectNoEvents();
  });

  it('does not take away: it is listed as unsupported and changes nothing', async () => {
    const member = t.accounts.member;
    const res = await setFor('admin', member.id, { away: true, status_text: 'x' });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['away'],
    });
    expect(presenceEnabled(member.id)).toBe(true);
    const events = await watchers.take();
    expect(receivers(events, (e) => e.type === 'user_settings')).toEqual([]);
    expect(statusEvents(events).owner).toEqual([
      { type: 'user_status', user_id: member.id, status_text: 'x' },
    ]);
    // away alone is no new value here.
    await expectError(
      await setFor('admin', member.id, { away: true }),
      'Client did not pass any new values.',
    );
  });
});

describe('GET /users/{user_id}/status', () => {
  it('is open to every user and bot', async () => {
    await setOwn('owner', { status_text: 'reading' });
    for (const who of ['admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      expect(await getStatus(t.accounts.owner.id, who)).toEqual({ status_text: 'reading' });
    }
  });

  it('refuses unknown users, bots and deactivated users', async () => {
    const expectGetError = async (id: number, msg: string) => {
      await expectError(await t.as('member').get(`/users/${id}/status`), msg);
    };
    await expectGetError(999999, 'No such user');
    await expectGetError(t.accounts.bot.id, 'No such user');
    await expectGetError(gone.id, 'User is deactivated');
  });

  it('leaves deactivated users out of register', async () => {
    t.server.ctx.db
      .prepare(
        "INSERT INTO user_status (user_id, status_text, timestamp) VALUES (?, 'long gone', 0)",
      )
      .run(gone.id);
    await setOwn('member', { status_text: 'here' });
    expect(await registeredStatuses()).toEqual({
      [t.accounts.member.id]: { status_text: 'here' },
    });
  });
});
