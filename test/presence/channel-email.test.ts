import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSlug } from '../../server/channels/email-address.js';
import { userById } from '../../server/db/queries/users.js';
import { createBot } from '../../server/users/bots.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let general: number;
let secret: number;
let announcements: number;
let archived: number;
/** A bot owned by the owner, not by the member. */
let ownersBotId: number;

beforeAll(async () => {
  t = await startTestServer();
  const a = t.accounts;
  general = createChannel(t, {
    name: 'General chat',
    subscribers: [a.owner.id, a.member.id, a.guest.id],
  });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  announcements = createChannel(t, { name: 'announcements', subscribers: [a.member.id] });
  archived = createChannel(t, { name: 'old', subscribers: [a.member.id] });
  const db = t.server.ctx.db;
  // Only administrators may post in announcements.
  db.prepare(
    "UPDATE streams SET permissions = json_set(permissions, '$.can_send_message_group', 'role:administrators') WHERE id = ?",
  ).run(announcements);
  db.prepare('UPDATE streams SET is_archived = 1 WHERE id = ?').run(archived);
  const bot = createBot(t.server.ctx, userById(db, a.owner.id)!, {
    fullName: 'Owner Bot',
    shortName: 'ownerbot',
    botType: 1,
  });
  ownersBotId = bot.user_id;
});
afterAll(() => t.close());

const address = (who: 'owner' | 'admin' | 'member' | 'guest', streamId: number, params = {}) =>
  t.as(who).get(`/streams/${streamId}/email_address`, params);

describe('GET /streams/{stream_id}/email_address', () => {
  it('answers <slug>.<token>@<organization domain>, the same every time', async () => {
    const res = await address('member', general);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      email: expect.stringMatching(/^general-chat\.[0-9a-f]{32}@test\.hearth$/),
    });
    expect((await address('member', general)).body.email).toBe(res.body.email);
  });

  it('differs by channel, by caller and by sender', async () => {
    const member = (await address('member', general)).body.email;
    const owner = (await address('owner', general)).body.email;
    const asSelf = (await address('member', general, { sender_id: t.accounts.member.id })).body
      .email;
    const asBot = (await address('member', general, { sender_id: t.accounts.bot.id })).body.email;
    const other = (await address('owner', secret)).body.email;
    expect(new Set([member, owner, asSelf, asBot, other]).size).toBe(5);
    expect(other).toMatch(/^secret\./);
  });

  it('lets the sender be the caller or a bot the caller administers', async () => {
    const { member, bot } = t.accounts;
    expect((await address('member', general, { sender_id: member.id })).status).toBe(200);
    expect((await address('member', general, { sender_id: bot.id })).status).toBe(200);
    // Administrators administer every bot, their own or not.
    for (const sender of [ownersBotId, bot.id]) {
      expect((await address('admin', general, { sender_id: sender })).status).toBe(200);
    }
  });

  it('needs access to the channel and permission to post in it', async () => {
    const expectError = async (res: Awaited<ReturnType<typeof address>>, msg: string) => {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    };
    await expectError(await address('member', secret), 'Invalid channel ID');
    await expectError(await address('guest', announcements), 'Invalid channel ID');
    await expectError(await address('member', archived), 'Invalid channel ID');
    await expectError(await address('member', 99999), 'Invalid channel ID');
    await expectError(
      await address('member', announcements),
      'You do not have permission to post in this channel.',
    );
    expect((await address('admin', announcements)).status).toBe(200);
  });

  it('refuses senders that are not the caller or their bots', async () => {
    const expectError = async (params: Record<string, unknown>, msg: string) => {
      const res = await address('member', general, params);
      expect(res.status, msg).toBe(400);
      expect(res.body.msg).toBe(msg);
    };
    await expectError({ sender_id: t.accounts.owner.id }, 'No such bot');
    await expectError({ sender_id: 99999 }, 'No such bot');
    await expectError({ sender_id: ownersBotId }, 'Insufficient permission');
    await expectError({ sender_id: -1 }, 'Invalid sender_id');
    await expectError({ sender_id: 'me' }, 'sender_id is not valid JSON');
  });
});

describe('channelSlug (Zulip’s rule)', () => {
  it('hyphenates, lower-cases and transliterates; drops names it would mangle', () => {
    expect(channelSlug('general')).toBe('general');
    expect(channelSlug('Design  team / UX')).toBe('design-team-ux');
    expect(channelSlug('Café')).toBe('cafe');
    expect(channelSlug('snake_case')).toBe('snake_case');
    // Characters with no ASCII form would leave a mangled name: left out.
    expect(channelSlug('日本語')).toBe('');
    // Leading or trailing punctuation is lost by slugify, which counts as mangling in Zulip.
    expect(channelSlug('#random')).toBe('');
    expect(channelSlug('help!')).toBe('');
  });

  it('leaves the address as the token alone when there is no slug', async () => {
    const odd = createChannel(t, { name: '日本語', subscribers: [t.accounts.member.id] });
    const res = await address('member', odd);
    expect(res.body.email).toMatch(/^[0-9a-f]{32}@test\.hearth$/);
  });
});
