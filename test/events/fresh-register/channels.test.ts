/**
 * Channels, subscriptions and topics, proven by a fresh register: creating,
 * subscribing (oneself and others), leaving, subscription properties,
 * channel settings, archiving, topic visibility policies, muted users,
 * default channels and channel folders.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createChannel } from '../../helpers/fixtures.js';
import { sendToChannel } from '../../helpers/messages.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { checkAction } from './harness.js';

let t: TestServer;
let lounge: number;
let secret: number;
beforeAll(async () => {
  t = await startTestServer();
  const { owner, admin, member, guest } = t.accounts;
  lounge = createChannel(t, {
    name: 'lounge',
    subscribers: [owner.id, admin.id, member.id, guest.id],
  });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [owner.id, admin.id] });
  await sendToChannel(t, 'admin', lounge, 'hello', 'unread for everyone');
});
afterAll(() => t.close());

const expectOk = (res: { status: number; body: unknown }) => {
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
};

const EVERYONE = ['owner', 'admin', 'member', 'guest'] as const;

describe('creating and subscribing', () => {
  it('creating a public channel, subscribing oneself', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('member').post('/users/me/subscriptions', {
          subscriptions: [{ name: 'fresh', description: 'New' }],
        }),
      ),
    );
  });

  it('creating a private channel with others in it', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('admin').post('/users/me/subscriptions', {
          subscriptions: [{ name: 'hush' }],
          invite_only: true,
          principals: [t.accounts.admin.id, t.accounts.member.id],
        }),
      ),
    );
  });

  it('POST /channels/create', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('owner').post('/channels/create', {
          name: 'made',
          subscribers: [t.accounts.owner.id, t.accounts.guest.id],
        }),
      ),
    );
  });

  it('subscribing someone else to an existing channel', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('owner').post('/users/me/subscriptions', {
          subscriptions: [{ name: 'secret' }],
          principals: [t.accounts.member.id],
        }),
      ),
    );
  });

  it('leaving a channel, and unsubscribing someone else', async () => {
    await checkAction(t, EVERYONE, async () => {
      expectOk(
        await t.as('member').delete('/users/me/subscriptions', { subscriptions: ['secret'] }),
      );
      expectOk(
        await t.as('owner').delete('/users/me/subscriptions', {
          subscriptions: ['lounge'],
          principals: [t.accounts.guest.id],
        }),
      );
    });
  });

  it('joining a channel one left', async () => {
    await checkAction(t, ['owner', 'guest'], async () =>
      expectOk(
        await t.as('owner').post('/users/me/subscriptions', {
          subscriptions: [{ name: 'lounge' }],
          principals: [t.accounts.guest.id],
        }),
      ),
    );
  });
});

describe('subscription properties', () => {
  for (const [property, value] of [
    ['color', '#123456'],
    ['is_muted', true],
    ['pin_to_top', true],
    ['desktop_notifications', true],
    ['audible_notifications', false],
    ['push_notifications', true],
    ['email_notifications', false],
    ['wildcard_mentions_notify', true],
    ['in_home_view', true],
  ] as const) {
    it(property, async () => {
      await checkAction(t, ['member'], async () =>
        expectOk(
          await t.as('member').post('/users/me/subscriptions/properties', {
            subscription_data: [{ stream_id: lounge, property, value }],
          }),
        ),
      );
    });
  }
});

describe('channel settings', () => {
  const update = (params: Record<string, unknown>, channel = () => lounge) =>
    checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('owner').patch(`/streams/${channel()}`, params)),
    );

  it('name', () => update({ new_name: 'living room' }));
  it('description', () => update({ description: 'Where we **talk**' }));
  it('made private', () => update({ is_private: true, history_public_to_subscribers: false }));
  it('made public again', () => update({ is_private: false }));
  it('message retention', () => update({ message_retention_days: 30 }));
  it('a permission group', () =>
    update({
      can_send_message_group: {
        new: { direct_members: [t.accounts.owner.id], direct_subgroups: [] },
      },
    }));
});

describe('archiving', () => {
  it('a channel', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('owner').delete(`/streams/${secret}`)),
    );
  });
});

describe('topics', () => {
  for (const [name, policy] of [
    ['muting', 1],
    ['unmuting', 2],
    ['following', 3],
    ['back to inherit', 0],
  ] as const) {
    it(name, async () => {
      await checkAction(t, ['member'], async () =>
        expectOk(
          await t.as('member').post('/user_topics', {
            stream_id: lounge,
            topic: 'hello',
            visibility_policy: policy,
          }),
        ),
      );
    });
  }
});

describe('muted topics (the legacy endpoint)', () => {
  it('muting and unmuting', async () => {
    for (const op of ['add', 'remove']) {
      await checkAction(t, ['member'], async () =>
        expectOk(
          await t.as('member').patch('/users/me/subscriptions/muted_topics', {
            stream_id: lounge,
            topic: 'hello',
            op,
          }),
        ),
      );
    }
  });
});

describe('muted users', () => {
  it('muting and unmuting', async () => {
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').post(`/users/me/muted_users/${t.accounts.admin.id}`)),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').delete(`/users/me/muted_users/${t.accounts.admin.id}`)),
    );
  });
});

describe('default channels', () => {
  it('adding and removing one', async () => {
    await checkAction(t, ['owner', 'member', 'guest'], async () =>
      expectOk(await t.as('owner').post('/default_streams', { stream_id: lounge })),
    );
    await checkAction(t, ['owner', 'member', 'guest'], async () =>
      expectOk(await t.as('owner').delete('/default_streams', { stream_id: lounge })),
    );
  });
});

describe('channel folders', () => {
  it('creating, renaming, reordering, archiving, and filing a channel', async () => {
    const created = await checkAction(t, ['owner', 'member'], () =>
      t.as('owner').post('/channel_folders/create', { name: 'Work', description: 'Jobs' }),
    );
    const first = created.body.channel_folder_id as number;
    const second = (
      await checkAction(t, ['owner', 'member'], () =>
        t.as('owner').post('/channel_folders/create', { name: 'Play', description: '' }),
      )
    ).body.channel_folder_id as number;
    await checkAction(t, ['owner', 'member'], async () =>
      expectOk(await t.as('owner').patch(`/channel_folders/${first}`, { name: 'Labour' })),
    );
    await checkAction(t, ['owner', 'member'], async () =>
      expectOk(await t.as('owner').patch('/channel_folders', { order: [second, first] })),
    );
    await checkAction(t, ['owner', 'member'], async () =>
      expectOk(await t.as('owner').patch(`/streams/${lounge}`, { folder_id: second })),
    );
    await checkAction(t, ['owner', 'member'], async () =>
      expectOk(await t.as('owner').patch(`/channel_folders/${first}`, { is_archived: true })),
    );
  });
});
