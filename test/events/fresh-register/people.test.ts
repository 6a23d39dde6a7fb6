/**
 * People, proven by a fresh register: users and their roles, names and
 * activation, one's own settings, bots, user groups, custom profile fields,
 * statuses, presence and alert words.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { Role } from '../../../server/shared/roles.js';
import { createChannel } from '../../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { checkAction } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
const expectOk = (res: { status: number; body: any }) => {
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
};

const EVERYONE = ['owner', 'admin', 'member', 'guest'] as const;

/**
 * What Zulip's apply_event re-reads from the database when one's own role
 * changes (no event carries them): the bots an administrator sees, the
 * default channels a guest does not, and the permissions derived from role.
 */
const OWN_ROLE_REREAD = [
  'realm_bots',
  'realm_default_streams',
  'can_create_streams',
  'can_create_public_streams',
  'can_create_private_streams',
  'can_create_web_public_streams',
  'can_subscribe_other_users',
  'can_invite_others_to_realm',
];

describe('users', () => {
  it('creating one', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('owner').post('/users', {
          email: 'newcomer@example.com',
          password: 'a long enough password 1',
          full_name: 'New Comer',
        }),
      ),
    );
  });

  it('renaming someone', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t
          .as('admin')
          .patch(`/users/${t.accounts.member.id}`, { full_name: 'Melanie Member' }),
      ),
    );
  });

  it('changing roles', async () => {
    const who = await t.createMember('Rolf Role');
    const observers = [...EVERYONE, who];
    for (const role of [Role.moderator, Role.administrator, Role.guest, Role.member]) {
      await checkAction(
        t,
        observers,
        async () => expectOk(await t.as('owner').patch(`/users/${who.id}`, { role })),
        { ignore: [], ignoreFor: { [who.email]: OWN_ROLE_REREAD } },
      );
    }
  });

  /**
   * Known failure: a role that reveals a channel (a guest made a member)
   * sends `stream` `create`, whose channel already counts its subscribers
   * (subscriber_count), then `peer_add` with those subscribers, as Zulip's
   * send_stream_events_for_role_update. A client with subscriber lists
   * (Zulip's apply_event starts a created channel's list empty) and one with
   * counts only (the chat) both count the subscribers twice.
   */
  it('a role that reveals a channel with subscribers', async () => {
    createChannel(t, { name: 'revealed', subscribers: [t.accounts.moderator.id] });
    const who = await t.createMember('Gwen Guest', Role.guest);
    await checkAction(
      t,
      [who],
      async () => expectOk(await t.as('owner').patch(`/users/${who.id}`, { role: Role.member })),
      { ignore: OWN_ROLE_REREAD },
    );
  });

  it('deactivating and reactivating', async () => {
    const who = await t.createMember('Dee Activated');
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('admin').delete(`/users/${who.id}`)),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('admin').post(`/users/${who.id}/reactivate`)),
    );
  });
});

describe('who may see whom', () => {
  it('guests limited to the users they share conversations with', async () => {
    const stranger = await t.createMember('Stan Stranger');
    const members = 6; // role:members
    // The user list changes wholesale with this setting: a guest's client starts
    // afresh (a new register), so the harness checks what follows from there.
    expectOk(await t.as('owner').patch('/realm', { can_access_all_users_group: { new: members } }));
    // A user the guest cannot see changes; then one appears to them by a shared channel.
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('admin').patch(`/users/${stranger.id}`, { full_name: 'Stan Hidden' })),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('owner').post('/users/me/subscriptions', {
          subscriptions: [{ name: 'meeting place' }],
          principals: [stranger.id, t.accounts.guest.id],
        }),
      ),
    );
  });
});

describe('anonymous-group settings naming a deactivated user', () => {
  /**
   * A realm setting and a user group's setting whose anonymous group names
   * the user: register leaves deactivated users out of them (Zulip's
   * get_group_setting_value_for_api). Those who hear is_active false drop the
   * user themselves; a guest who may not see the user gets each setting's new
   * value (Zulip's send_update_events_for_anonymous_group_settings), and so
   * does everyone at reactivation.
   */
  async function settingsNaming(name: string) {
    const who = await t.createMember(name);
    const settingValue = { direct_members: [who.id, t.accounts.member.id], direct_subgroups: [] };
    expectOk(
      await t.as('owner').patch('/realm', { can_add_custom_emoji_group: { new: settingValue } }),
    );
    expectOk(
      await t.as('owner').post('/user_groups/create', {
        name: `managed by ${name}`,
        description: '',
        members: [t.accounts.member.id],
        can_manage_group: settingValue,
      }),
    );
    return who;
  }
  const groupId = async (name: string): Promise<number> =>
    (await t.as('owner').get('/user_groups')).body.user_groups.find(
      (g: { name: string }) => g.name === name,
    ).id;

  it('when everyone may see everyone', async () => {
    const who = await settingsNaming('Ana Anonymous');
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('admin').delete(`/users/${who.id}`)),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('admin').post(`/users/${who.id}/reactivate`)),
    );
  });

  it('when a guest may not see the user', async () => {
    const who = await settingsNaming('Hugo Hidden');
    const set = async (group: string) =>
      expectOk(
        await t
          .as('owner')
          .patch('/realm', { can_access_all_users_group: { new: await groupId(group) } }),
      );
    await set('role:members');
    try {
      await checkAction(t, EVERYONE, async () =>
        expectOk(await t.as('admin').delete(`/users/${who.id}`)),
      );
      await checkAction(t, EVERYONE, async () =>
        expectOk(await t.as('admin').post(`/users/${who.id}/reactivate`)),
      );
    } finally {
      await set('role:everyone');
    }
  });
});

describe('own settings', () => {
  for (const [setting, value] of [
    ['full_name', 'Mel the Member'],
    ['twenty_four_hour_time', true],
    ['emojiset', 'text'],
    ['enable_desktop_notifications', false],
    ['timezone', 'Europe/Paris'],
    ['web_mark_read_on_scroll_policy', 2],
  ] as const) {
    it(setting, async () => {
      await checkAction(t, ['member', 'owner'], async () =>
        expectOk(await t.as('member').patch('/settings', { [setting]: value })),
      );
    });
  }

  it('an avatar, uploaded and removed', async () => {
    const png = await import('sharp').then((sharp) =>
      sharp
        .default({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
        .png()
        .toBuffer(),
    );
    await checkAction(t, ['member', 'owner'], async () =>
      expectOk(
        await t
          .as('member')
          .post(
            '/users/me/avatar',
            { file: new File([new Uint8Array(png)], 'me.png', { type: 'image/png' }) },
            { encoding: 'multipart' },
          ),
      ),
    );
    await checkAction(t, ['member', 'owner'], async () =>
      expectOk(await t.as('member').delete('/users/me/avatar')),
    );
  });

  it('organization defaults for new users', async () => {
    await checkAction(t, ['owner', 'member'], async () =>
      expectOk(
        await t.as('owner').patch('/realm/user_settings_defaults', { twenty_four_hour_time: true }),
      ),
    );
  });
});

describe('bots', () => {
  it('creating, renaming, changing owner, deactivating and reactivating', async () => {
    const observers = ['owner', 'member', 'moderator'] as const;
    const created = await checkAction(t, observers, async () =>
      expectOk(
        await t.as('member').post('/bots', { full_name: 'Helper Bot', short_name: 'helper' }),
      ),
    );
    const bot = created.user_id as number;
    createChannel(t, { name: 'bots', subscribers: [t.accounts.moderator.id] });
    await checkAction(t, observers, async () =>
      expectOk(await t.as('member').patch(`/bots/${bot}`, { full_name: 'Helpful Bot' })),
    );
    await checkAction(t, observers, async () =>
      expectOk(
        await t.as('owner').patch(`/bots/${bot}`, { bot_owner_id: t.accounts.moderator.id }),
      ),
    );
    for (const change of [
      { default_sending_stream: 'bots' },
      { default_events_register_stream: 'bots' },
      { default_all_public_streams: true },
    ]) {
      await checkAction(t, observers, async () =>
        expectOk(await t.as('moderator').patch(`/bots/${bot}`, change)),
      );
    }
    await checkAction(t, observers, async () =>
      expectOk(await t.as('moderator').post(`/bots/${bot}/api_key/regenerate`)),
    );
    await checkAction(t, observers, async () =>
      expectOk(await t.as('owner').delete(`/bots/${bot}`)),
    );
    await checkAction(t, observers, async () =>
      expectOk(await t.as('owner').post(`/users/${bot}/reactivate`)),
    );
  });
});

describe('user groups', () => {
  it('creating, updating, members, subgroups and deactivating', async () => {
    const { member, guest, moderator } = t.accounts;
    const made = await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('member').post('/user_groups/create', {
          name: 'crew',
          description: 'The crew',
          members: [member.id],
        }),
      ),
    );
    const crew = made.group_id as number;
    const other = (
      await checkAction(t, EVERYONE, async () =>
        expectOk(
          await t.as('member').post('/user_groups/create', {
            name: 'band',
            description: '',
            members: [moderator.id],
          }),
        ),
      )
    ).group_id as number;
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('member').patch(`/user_groups/${crew}`, { name: 'the crew' })),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('member').post(`/user_groups/${crew}/members`, { add: [guest.id] })),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('member').patch(`/user_groups/${crew}`, {
          can_mention_group: { new: { direct_members: [member.id], direct_subgroups: [] } },
        }),
      ),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('member').post(`/user_groups/${crew}/members`, { delete: [guest.id] })),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('member').post(`/user_groups/${crew}/subgroups`, { add: [other] })),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('member').post(`/user_groups/${crew}/subgroups`, { delete: [other] })),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('owner').post(`/user_groups/${other}/deactivate`)),
    );
  });
});

describe('custom profile fields', () => {
  it('creating, editing, reordering, filling in and deleting', async () => {
    const first = (
      await checkAction(t, EVERYONE, async () =>
        expectOk(
          await t.as('owner').post('/realm/profile_fields', { name: 'Team', field_type: 1 }),
        ),
      )
    ).id as number;
    const second = (
      await checkAction(t, EVERYONE, async () =>
        expectOk(await t.as('owner').post('/realm/profile_fields', { name: 'Bio', field_type: 2 })),
      )
    ).id as number;
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('owner').patch(`/realm/profile_fields/${first}`, { name: 'Squad' })),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('owner').patch('/realm/profile_fields', { order: [second, first] })),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('member').patch('/users/me/profile_data', {
          data: [
            { id: first, value: 'Blue' },
            { id: second, value: 'Likes **tea**' },
          ],
        }),
      ),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('member').delete('/users/me/profile_data', { data: [second] })),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('owner').delete(`/realm/profile_fields/${first}`)),
    );
  });
});

describe('status, presence and alert words', () => {
  it('a status, set and cleared', async () => {
    await checkAction(t, ['member', 'owner'], async () =>
      expectOk(
        await t
          .as('member')
          .post('/users/me/status', { status_text: 'Lunch', emoji_name: 'smile' }),
      ),
    );
    await checkAction(t, ['member', 'owner'], async () =>
      expectOk(await t.as('member').post('/users/me/status', { status_text: '', emoji_name: '' })),
    );
  });

  /**
   * Known failure: going away (presence_enabled off) sends everyone a
   * presence event that reads "idle long ago", as Zulip's, but Hearth's
   * register then leaves the user out of `presences` altogether (invisible
   * mode, server/presence/state.ts, tested so in test/presence). Both read as
   * offline; the states differ. Zulip's register keeps the old record.
   */
  it('going away and coming back (presence_enabled)', async () => {
    for (const away of [true, false]) {
      await checkAction(
        t,
        ['member', 'owner'],
        async () => expectOk(await t.as('member').post('/users/me/status', { away })),
        // Turning presence off or on writes a presence row; see the presence test.
        { ignore: ['presence_last_update_id'] },
      );
    }
  });

  it('presence', async () => {
    await checkAction(
      t,
      ['member', 'owner'],
      async () =>
        expectOk(
          await t.as('admin').post('/users/me/presence', { status: 'active', slim_presence: true }),
        ),
      // A client moves presence_last_update_id on with its own presence requests' answers, not events.
      { ignore: ['presence_last_update_id'] },
    );
  });

  it('alert words, added and removed', async () => {
    await checkAction(t, ['member'], async () =>
      expectOk(
        await t.as('member').post('/users/me/alert_words', { alert_words: ['tea', 'cake'] }),
      ),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').delete('/users/me/alert_words', { alert_words: ['tea'] })),
    );
  });
});
