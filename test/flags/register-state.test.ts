import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unreadCount } from '../../server/db/queries/unread.js';
import { unreadMsgs } from '../../server/flags/unread.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';
import { allUnreadIds, messageState } from './support.js';

let t: TestServer;
let reader: Account; // the user whose state is read; nothing else happens to them
let alpha: number; // reader, admin
let beta: number; // reader, admin
let other: number; // admin only
const sent: Record<string, number> = {};

const register = (params: Record<string, unknown>) => t.as(reader).post('/register', params);

beforeAll(async () => {
  t = await startTestServer();
  reader = await t.createMember('Rhea Reader');
  const a = t.accounts.admin.id;
  const m = t.accounts.member.id;
  // Created in this order so that ids sort beta before alpha.
  beta = createChannel(t, { name: 'beta', subscribers: [reader.id, a] });
  alpha = createChannel(t, { name: 'alpha', subscribers: [reader.id, a] });
  other = createChannel(t, { name: 'other', subscribers: [a] });
  sent.otherChannel = await sendToChannel(t, 'admin', other, 'elsewhere');
  sent.dmFromMember = await sendDirect(t, 'member', [reader.id]);
  sent.alphaLunch = await sendToChannel(t, 'admin', alpha, 'Lunch');
  sent.betaZ = await sendToChannel(t, 'admin', beta, 'zebra');
  sent.group = await sendDirect(t, 'admin', [reader.id, m]);
  sent.alphaLunchLower = await sendToChannel(t, 'admin', alpha, 'lunch', 'hi @**Rhea Reader**');
  sent.betaEmpty = await sendToChannel(t, 'admin', beta, '');
  sent.dmFromAdmin = await sendDirect(t, 'admin', [reader.id]);
  sent.selfNote = await sendDirect(t, reader, [reader.id], 'note', { read_by_sender: false });
  sent.alphaApple = await sendToChannel(t, 'admin', alpha, 'apple');
  sent.readDm = await sendDirect(t, reader, [t.accounts.owner.id], 'hi', { read_by_sender: true });
  await t.as(reader).post('/messages/flags', {
    messages: [sent.alphaApple, sent.betaZ],
    op: 'add',
    flag: 'starred',
  });
});
afterAll(() => t.close());

describe('POST /register: unread_msgs', () => {
  it('is there only when both message and update_message_flags are asked for', async () => {
    expect((await register({ fetch_event_types: ['message'] })).body).not.toHaveProperty(
      'unread_msgs',
    );
    expect(
      (await register({ fetch_event_types: ['update_message_flags'] })).body,
    ).not.toHaveProperty('unread_msgs');
    expect(
      (await register({ fetch_event_types: ['message', 'update_message_flags'] })).body,
    ).toHaveProperty('unread_msgs');
    // Without fetch_event_types, event_types decide.
    expect(
      (await register({ event_types: ['message', 'update_message_flags'] })).body,
    ).toHaveProperty('unread_msgs');
  });

  it('groups by conversation in Zulip’s order, with the legacy sender_id', async () => {
    const { unread_msgs } = await messageState(t.as(reader));
    const { admin, member, owner } = t.accounts;
    expect(unread_msgs).toEqual({
      pms: [
        { other_user_id: admin.id, sender_id: admin.id, unread_message_ids: [sent.dmFromAdmin] },
        { other_user_id: member.id, sender_id: member.id, unread_message_ids: [sent.dmFromMember] },
        { other_user_id: reader.id, sender_id: reader.id, unread_message_ids: [sent.selfNote] },
      ].sort((x, y) => x.other_user_id - y.other_user_id),
      streams: [
        { stream_id: beta, topic: 'general chat', unread_message_ids: [sent.betaEmpty] },
        { stream_id: beta, topic: 'zebra', unread_message_ids: [sent.betaZ] },
        { stream_id: alpha, topic: 'apple', unread_message_ids: [sent.alphaApple] },
        // Case-insensitive topics keep the oldest spelling.
        {
          stream_id: alpha,
          topic: 'Lunch',
          unread_message_ids: [sent.alphaLunch, sent.alphaLunchLower],
        },
      ],
      huddles: [
        {
          user_ids_string: [admin.id, member.id, reader.id].sort((x, y) => x - y).join(','),
          unread_message_ids: [sent.group],
        },
      ],
      mentions: [sent.alphaLunchLower],
      count: 9,
      old_unreads_missing: false,
    });
    expect(unread_msgs.count).toBe(unreadCount(t.server.ctx.db, reader.id));
    expect(owner.id).toBeDefined();
  });

  it('shows the empty topic as itself to clients that can', async () => {
    const { unread_msgs } = await messageState(t.as(reader), {
      client_capabilities: { empty_topic_name: true },
    });
    expect(unread_msgs.streams[0]).toEqual({
      stream_id: beta,
      topic: '',
      unread_message_ids: [sent.betaEmpty],
    });
  });

  it('keeps only the newest unread messages past the cap and says so', () => {
    const capped = unreadMsgs(t.server.ctx.db, reader.id, { emptyTopicName: null, cap: 3 });
    expect(allUnreadIds(capped)).toEqual([sent.dmFromAdmin, sent.selfNote, sent.alphaApple]);
    expect(capped.old_unreads_missing).toBe(true);
    const all = unreadMsgs(t.server.ctx.db, reader.id, { emptyTopicName: null, cap: 9 });
    expect(all.old_unreads_missing).toBe(true);
    expect(
      unreadMsgs(t.server.ctx.db, reader.id, { emptyTopicName: null, cap: 10 }).old_unreads_missing,
    ).toBe(false);
  });
});

describe('POST /register: the rest of the message state', () => {
  it('has max_message_id for "message": the newest message the user received', async () => {
    const res = await register({ fetch_event_types: ['message'] });
    expect(res.body.max_message_id).toBe(sent.readDm);
    const newcomer = await t.createMember('Nell New');
    await sendToChannel(t, 'admin', other, 'not for Nell');
    const fresh = await t.as(newcomer).post('/register', { fetch_event_types: ['message'] });
    expect(fresh.body.max_message_id).toBe(-1);
  });

  it('lists starred messages in ascending order', async () => {
    const res = await register({ fetch_event_types: ['starred_messages'] });
    expect(res.body.starred_messages).toEqual([sent.betaZ, sent.alphaApple]);
    expect(res.body).not.toHaveProperty('unread_msgs');
    expect(res.body).not.toHaveProperty('max_message_id');
  });

  it('lists recent direct-message conversations, newest first, without the user', async () => {
    const res = await register({ fetch_event_types: ['recent_private_conversations'] });
    const { admin, member, owner } = t.accounts;
    expect(res.body.recent_private_conversations).toEqual([
      { max_message_id: sent.readDm, user_ids: [owner.id] },
      { max_message_id: sent.selfNote, user_ids: [] },
      { max_message_id: sent.dmFromAdmin, user_ids: [admin.id] },
      { max_message_id: sent.group, user_ids: [admin.id, member.id].sort((x, y) => x - y) },
      { max_message_id: sent.dmFromMember, user_ids: [member.id] },
    ]);
  });

  it('has user_topics for "user_topic" and three-element muted_topics for "muted_topics"', async () => {
    await t
      .as(reader)
      .post('/user_topics', { stream_id: alpha, topic: 'apple', visibility_policy: 1 });
    await t
      .as(reader)
      .post('/user_topics', { stream_id: beta, topic: 'zebra', visibility_policy: 3 });
    const topics = await register({ fetch_event_types: ['user_topic'] });
    expect(topics.body.user_topics).toEqual([
      {
        stream_id: beta,
        topic_name: 'zebra',
        last_updated: expect.any(Number),
        visibility_policy: 3,
      },
      {
        stream_id: alpha,
        topic_name: 'apple',
        last_updated: expect.any(Number),
        visibility_policy: 1,
      },
      // Followed automatically when the user was mentioned there.
      {
        stream_id: alpha,
        topic_name: 'lunch',
        last_updated: expect.any(Number),
        visibility_policy: 3,
      },
    ]);
    expect(topics.body).not.toHaveProperty('muted_topics');
    const muted = await register({ fetch_event_types: ['muted_topics'] });
    expect(muted.body.muted_topics).toEqual([['alpha', 'apple', expect.any(Number)]]);
    expect(muted.body).not.toHaveProperty('user_topics');
  });

  it('gives zulip-terminal everything it indexes', async () => {
    const res = await register({
      event_types: [
        'message',
        'update_message',
        'reaction',
        'submessage',
        'subscription',
        'typing',
        'update_message_flags',
        'user_settings',
        'realm_emoji',
        'realm_user',
      ],
      fetch_event_types: [
        'realm',
        'presence',
        'subscription',
        'message',
        'starred_messages',
        'update_message_flags',
        'muted_topics',
        'realm_user',
        'realm_user_groups',
        'user_settings',
        'realm_emoji',
        'custom_profile_fields',
        'zulip_version',
      ],
      client_gravatar: true,
      apply_markdown: true,
      include_subscribers: true,
      narrow: [],
    });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(typeof body.max_message_id).toBe('number');
    expect(Array.isArray(body.starred_messages)).toBe(true);
    for (const entry of body.muted_topics) expect(entry).toHaveLength(3);
    for (const pm of body.unread_msgs.pms) expect(pm.sender_id).toBe(pm.other_user_id);
    for (const key of ['pms', 'streams', 'huddles', 'mentions']) {
      expect(Array.isArray(body.unread_msgs[key])).toBe(true);
    }
    for (const huddle of body.unread_msgs.huddles) {
      expect(huddle.user_ids_string).toMatch(/^\d+(,\d+)+$/);
    }
  });
});
