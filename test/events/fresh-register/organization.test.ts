/**
 * The organization and each user's own things, proven by a fresh register:
 * realm settings, custom emoji, linkifiers, code playgrounds, allowed
 * domains, drafts, scheduled messages, reminders, saved snippets,
 * navigation views, uploads and devices.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { deliverDue } from '../../../server/scheduled/index.js';
import { createChannel } from '../../helpers/fixtures.js';
import { sendToChannel } from '../../helpers/messages.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { checkAction } from './harness.js';

let t: TestServer;
let lounge: number;
let moderators: number;
let png: Buffer;
let clockOffsetMs = 0;
beforeAll(async () => {
  // The cron job is off: delivery runs by hand after moving the clock on.
  t = await startTestServer({ now: () => Date.now() + clockOffsetMs, scheduledDelivery: false });
  const { owner, admin, member, guest } = t.accounts;
  lounge = createChannel(t, {
    name: 'lounge',
    subscribers: [owner.id, admin.id, member.id, guest.id],
  });
  moderators = createChannel(t, { name: 'mods', private: true, subscribers: [owner.id] });
  const sharp = (await import('sharp')).default;
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a0' } })
    .png()
    .toBuffer();
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
const expectOk = (res: { status: number; body: any }) => {
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
};

const EVERYONE = ['owner', 'admin', 'member', 'guest'] as const;
/** The server's clock (moved on by the delivery test), in seconds. */
const serverNow = () => Math.floor((Date.now() + clockOffsetMs) / 1000);
const inAnHour = () => serverNow() + 3600;
const pngFile = (name: string) => new File([new Uint8Array(png)], name, { type: 'image/png' });

describe('realm settings', () => {
  for (const [setting, value] of [
    ['name', 'Renamed Org'],
    ['description', 'We **chat**'],
    ['allow_message_editing', false],
    ['allow_edit_history', false],
    ['message_edit_history_visibility_policy', 'moves'],
    ['message_content_edit_limit_seconds', 1200],
    ['topics_policy', 'disable_empty_topic'],
    ['mandatory_topics', false],
    ['emails_restricted_to_domains', true],
    ['enable_read_receipts', true],
    ['welcome_message_custom_text', 'Welcome!'],
    ['waiting_period_threshold', 3],
    ['can_create_public_channel_group', { new: 3 }],
    ['can_add_custom_emoji_group', { new: { direct_members: [], direct_subgroups: [4] } }],
  ] as const) {
    it(setting, async () => {
      await checkAction(t, EVERYONE, async () =>
        expectOk(await t.as('owner').patch('/realm', { [setting]: value })),
      );
    });
  }

  it('moderation_request_channel_id', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('owner').patch('/realm', { moderation_request_channel_id: moderators })),
    );
  });
});

describe('custom emoji', () => {
  it('adding and removing one', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('admin').post(
          '/realm/emoji/party_parrot',
          { file: pngFile('parrot.png') },
          {
            encoding: 'multipart',
          },
        ),
      ),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('admin').delete('/realm/emoji/party_parrot')),
    );
  });
});

describe('linkifiers', () => {
  it('adding, changing, reordering and removing', async () => {
    const add = (pattern: string) =>
      t.as('admin').post('/realm/filters', {
        pattern,
        url_template: 'https://tracker.example.com/{id}',
      });
    const first = (
      await checkAction(t, EVERYONE, async () => expectOk(await add('#(?P<id>[0-9]+)')))
    ).id as number;
    const second = (
      await checkAction(t, EVERYONE, async () => expectOk(await add('BUG-(?P<id>[0-9]+)')))
    ).id as number;
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('admin').patch(`/realm/filters/${first}`, {
          pattern: 'T(?P<id>[0-9]+)',
          url_template: 'https://t.example.com/{id}',
        }),
      ),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('admin').patch('/realm/linkifiers', { ordered_linkifier_ids: [second, first] }),
      ),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('admin').delete(`/realm/filters/${first}`)),
    );
  });
});

describe('code playgrounds and allowed domains', () => {
  it('a playground, added and removed', async () => {
    const made = await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('admin').post('/realm/playgrounds', {
          name: 'Python runner',
          pygments_language: 'Python',
          url_template: 'https://python.example.com/?code={code}',
        }),
      ),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('admin').delete(`/realm/playgrounds/${made.id}`)),
    );
  });

  it('a domain, added, changed and removed', async () => {
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t
          .as('owner')
          .post('/realm/domains', { domain: 'corp.example', allow_subdomains: false }),
      ),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(
        await t.as('owner').patch('/realm/domains/corp.example', { allow_subdomains: true }),
      ),
    );
    await checkAction(t, EVERYONE, async () =>
      expectOk(await t.as('owner').delete('/realm/domains/corp.example')),
    );
  });
});

describe('own things', () => {
  it('drafts', async () => {
    const draft = (content: string) => ({
      type: 'stream',
      to: [lounge],
      topic: 'plans',
      content,
      timestamp: Math.floor(Date.now() / 1000),
    });
    const made = await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').post('/drafts', { drafts: [draft('one'), draft('two')] })),
    );
    const [first, second] = made.ids as number[];
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').patch(`/drafts/${first}`, { draft: draft('one, again') })),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').delete(`/drafts/${second}`)),
    );
  });

  it('scheduled messages', async () => {
    const made = await checkAction(t, ['member'], async () =>
      expectOk(
        await t.as('member').post('/scheduled_messages', {
          type: 'stream',
          to: lounge,
          topic: 'later',
          content: 'in an hour',
          scheduled_delivery_timestamp: inAnHour(),
        }),
      ),
    );
    const id = made.scheduled_message_id as number;
    await checkAction(t, ['member'], async () =>
      expectOk(
        await t.as('member').patch(`/scheduled_messages/${id}`, {
          content: 'in two hours',
          scheduled_delivery_timestamp: inAnHour() + 3600,
        }),
      ),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').delete(`/scheduled_messages/${id}`)),
    );
  });

  it('reminders', async () => {
    const message = await sendToChannel(t, 'admin', lounge, 'remind', 'remember this');
    const made = await checkAction(t, ['member'], async () =>
      expectOk(
        await t.as('member').post('/reminders', {
          message_id: message,
          scheduled_delivery_timestamp: inAnHour(),
          note: 'look again',
        }),
      ),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').delete(`/reminders/${made.reminder_id}`)),
    );
  });

  it('delivering a scheduled message and a reminder', async () => {
    const message = await sendToChannel(t, 'admin', lounge, 'due', 'remind me');
    const when = serverNow() + 600;
    expectOk(
      await t.as('member').post('/scheduled_messages', {
        type: 'stream',
        to: lounge,
        topic: 'due',
        content: 'on time',
        scheduled_delivery_timestamp: when,
      }),
    );
    expectOk(
      await t
        .as('member')
        .post('/reminders', { message_id: message, scheduled_delivery_timestamp: when }),
    );
    clockOffsetMs += 3_600_000;
    await checkAction(t, ['member', 'owner'], async () => {
      const delivered = deliverDue(t.server.ctx);
      if (delivered.scheduledMessages.delivered !== 1 || delivered.reminders.delivered !== 1) {
        throw new Error(JSON.stringify(delivered));
      }
    });
  });

  it('saved snippets', async () => {
    const made = await checkAction(t, ['member'], async () =>
      expectOk(
        await t.as('member').post('/saved_snippets', { title: 'Hi', content: 'Hello there' }),
      ),
    );
    const id = made.saved_snippet_id as number;
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').patch(`/saved_snippets/${id}`, { content: 'Hello again' })),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').delete(`/saved_snippets/${id}`)),
    );
  });

  it('navigation views', async () => {
    await checkAction(t, ['member'], async () =>
      expectOk(
        await t.as('member').post('/navigation_views', { fragment: 'inbox', is_pinned: false }),
      ),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').patch('/navigation_views/inbox', { is_pinned: true })),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').delete('/navigation_views/inbox')),
    );
  });

  it('a device, registered and removed', async () => {
    const made = await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').post('/register_client_device')),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').post('/remove_client_device', { device_id: made.device_id })),
    );
  });

  it('an upload, and deleting it, change nothing in register', async () => {
    const made = await checkAction(
      t,
      ['member'],
      async () =>
        expectOk(
          await t
            .as('member')
            .post('/user_uploads', { file: pngFile('pic.png') }, { encoding: 'multipart' }),
        ),
      { unchanged: true },
    );
    const list = expectOk(await t.as('member').get('/attachments'));
    const attachment = list.attachments.find((a: { path_id: string }) =>
      made.url.endsWith(a.path_id),
    );
    await checkAction(
      t,
      ['member'],
      async () => expectOk(await t.as('member').delete(`/attachments/${attachment.id}`)),
      { unchanged: true },
    );
  });
});
