import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmGroupMemberIds } from '../../server/db/queries/messages.js';
import { setUserActive } from '../../server/db/queries/users.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk, streamMessage } from '../helpers/messages.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';
import { flagsOf, message, setRealm } from './send-support.js';

let t: TestServer;
let general: number;
let secret: number;
let web: number;
let gone: Account;

beforeAll(async () => {
  t = await startTestServer();
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.guest.id],
  });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  web = createChannel(t, { name: 'lobby', webPublic: true, subscribers: [a.owner.id] });
  createChannel(t, { name: 'quiet', subscribers: [a.owner.id] });
  gone = await t.createMember('Gone Away');
  setUserActive(t.server.ctx.db, gone.id, false);
});
afterAll(() => t.close());

const member = () => t.as('member');

describe('type and to', () => {
  it('accepts every type alias', async () => {
    for (const type of ['stream', 'channel']) {
      await sendOk(member(), { ...streamMessage('general', 'types', `via ${type}`), type });
    }
    for (const type of ['private', 'direct']) {
      const id = await sendOk(member(), { type, to: [t.accounts.owner.id], content: type });
      expect(message(t, id)!.dm_group_id).not.toBeNull();
    }
  });

  it('rejects an unknown type', async () => {
    const res = await member().post('/messages', {
      ...streamMessage('general', 'x', 'y'),
      type: 'x',
    });
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid type' });
  });

  it('addresses a channel by name, id, or a one-element list of either', async () => {
    for (const to of ['general', JSON.stringify(general), '["general"]', `[${general}]`]) {
      const id = await sendOk(member(), { type: 'stream', to, topic: 'addr', content: to });
      expect(message(t, id)!.stream_id).toBe(general);
    }
    const res = await member().post('/messages', {
      type: 'stream',
      to: '["general","quiet"]',
      topic: 'x',
      content: 'y',
    });
    expect(res.body.msg).toBe('Expected exactly one channel');
  });

  it('reports a missing channel with STREAM_DOES_NOT_EXIST and the name or id', async () => {
    let res = await member().post('/messages', streamMessage('nowhere<b>', 'x', 'y'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'STREAM_DOES_NOT_EXIST',
      msg: "Channel 'nowhere&lt;b&gt;' does not exist",
      stream: 'nowhere&lt;b&gt;',
    });
    // By id, Zulip names the id instead (the reference only knows the name form).
    res = await member().post('/messages', streamMessage(99999, 'x', 'y'), { skipSchema: true });
    expect(res.body).toMatchObject({
      code: 'STREAM_DOES_NOT_EXIST',
      msg: "Channel with ID '99999' does not exist",
      stream_id: 99999,
    });
  });

  it('addresses people by id list, e-mail list, bare e-mail and comma-separated e-mails', async () => {
    const { owner, admin, member: me } = t.accounts;
    const cases: Array<[unknown, number[]]> = [
      [
        [owner.id, admin.id],
        [me.id, owner.id, admin.id],
      ],
      [JSON.stringify([owner.email]), [me.id, owner.id]],
      [owner.email, [me.id, owner.id]],
      [`${owner.email}, ${admin.email}`, [me.id, owner.id, admin.id]],
    ];
    for (const [to, members] of cases) {
      const id = await sendOk(member(), { type: 'private', to, content: `to ${String(to)}` });
      const group = message(t, id)!.dm_group_id!;
      expect(dmGroupMemberIds(t.server.ctx.db, group)).toEqual([...members].sort((a, b) => a - b));
    }
  });

  it('ignores the sender in the list unless the sender is alone', async () => {
    const { owner, member: me } = t.accounts;
    const withSelf = await sendOk(member(), {
      type: 'direct',
      to: [me.id, owner.id],
      content: 'a',
    });
    const withoutSelf = await sendOk(member(), { type: 'direct', to: [owner.id], content: 'b' });
    expect(message(t, withSelf)!.dm_group_id).toBe(message(t, withoutSelf)!.dm_group_id);
    const note = await sendOk(member(), { type: 'direct', to: [me.id], content: 'note to self' });
    expect(dmGroupMemberIds(t.server.ctx.db, message(t, note)!.dm_group_id!)).toEqual([me.id]);
  });

  it('rejects invalid recipients with BAD_REQUEST', async () => {
    const expectError = async (to: unknown, msg: string) => {
      const res = await member().post('/messages', { type: 'direct', to, content: 'x' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg });
    };
    await expectError([99999], 'Invalid user ID 99999');
    await expectError(['nobody@example.com'], "Invalid email 'nobody@example.com'");
    await expectError(
      [t.accounts.owner.id, t.accounts.admin.email],
      'Recipient lists may contain emails or user IDs, but not both.',
    );
    await expectError([gone.id], `'${gone.email}' is no longer using Zulip.`);
    await expectError('{"a":1}', 'Invalid data type for recipients');
  });

  // The reference's POST /messages 400 schema omits var_name, which Zulip sends.
  const noSchema = { skipSchema: true };

  it('requires `to`', async () => {
    const res = await member().post('/messages', { type: 'direct', content: 'x' }, noSchema);
    expect(res.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Message must have recipients',
    });
  });
});

describe('topic', () => {
  it('is required for channel messages, with `subject` as its legacy name', async () => {
    const res = await member().post(
      '/messages',
      { type: 'stream', to: 'general', content: 'x' },
      { skipSchema: true }, // the reference's 400 schema omits var_name
    );
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Missing topic' });
    const id = await sendOk(member(), {
      type: 'stream',
      to: 'general',
      subject: 'old',
      content: 'x',
    });
    expect(message(t, id)!.topic).toBe('old');
  });

  it('treats "(no topic)" and the organization display name as the empty topic', async () => {
    for (const topic of ['(no topic)', 'general chat', '  ']) {
      const id = await sendOk(member(), streamMessage('general', topic, 'empty topic'));
      expect(message(t, id)!.topic).toBe('');
    }
    setRealm(t, { empty_topic_display_name: 'lobby talk' });
    try {
      const id = await sendOk(member(), streamMessage('general', 'lobby talk', 'renamed'));
      expect(message(t, id)!.topic).toBe('');
    } finally {
      setRealm(t, { empty_topic_display_name: 'general chat' });
    }
  });

  it('refuses an empty topic when the organization requires topics', async () => {
    setRealm(t, { mandatory_topics: true });
    try {
      for (const topic of ['', '(no topic)', 'general chat']) {
        const res = await member().post('/messages', streamMessage('general', topic, 'x'));
        expect(res.body).toMatchObject({
          code: 'BAD_REQUEST',
          msg: 'Topics are required in this organization',
        });
      }
      await sendOk(member(), streamMessage('general', 'named', 'fine'));
    } finally {
      setRealm(t, { mandatory_topics: false });
    }
  });

  it('truncates long topics to 57 characters and "..."', async () => {
    const id = await sendOk(member(), streamMessage('general', 'x'.repeat(80), 'long topic'));
    expect(message(t, id)!.topic).toBe(`${'x'.repeat(57)}...`);
    const exact = await sendOk(member(), streamMessage('general', 'y'.repeat(60), 'exact'));
    expect(message(t, exact)!.topic).toBe('y'.repeat(60));
  });
});

describe('content', () => {
  it('is truncated to 10000 characters with a notice, not rejected', async () => {
    const id = await sendOk(member(), streamMessage('general', 'long', 'a'.repeat(12000)));
    const content = message(t, id)!.content;
    expect(content).toHaveLength(10000);
    expect(content.endsWith('\n[message truncated]')).toBe(true);
  });

  it('must not be empty or contain NUL', async () => {
    let res = await member().post('/messages', streamMessage('general', 'x', ' \n '));
    expect(res.body.msg).toBe('Message must not be empty');
    res = await member().post('/messages', streamMessage('general', 'x', 'a\u0000b'));
    expect(res.body.msg).toBe('Message must not contain null bytes');
  });
});

describe('read_by_sender', () => {
  it('defaults from the client: self-rendering clients read their own messages', async () => {
    const headers = { 'user-agent': 'ZulipTerminal/0.7.0 Linux' };
    const terminal = await member().post('/messages', streamMessage('general', 'rbs', 'zt'), {
      headers,
    });
    expect(flagsOf(t, t.accounts.member.id, terminal.body.id)).toContain('read');
    const curl = await member().post('/messages', streamMessage('general', 'rbs', 'curl'), {
      headers: { 'user-agent': 'curl/8.0' },
    });
    expect(flagsOf(t, t.accounts.member.id, curl.body.id)).not.toContain('read');
  });

  it('can be set explicitly either way', async () => {
    const unread = await sendOk(member(), {
      ...streamMessage('general', 'rbs', 'unread'),
      read_by_sender: false,
    });
    expect(flagsOf(t, t.accounts.member.id, unread)).not.toContain('read');
    const read = await member().post(
      '/messages',
      { ...streamMessage('general', 'rbs', 'read'), read_by_sender: true },
      { headers: { 'user-agent': 'curl/8.0' } },
    );
    expect(flagsOf(t, t.accounts.member.id, read.body.id)).toContain('read');
  });
});

describe('local echo parameters', () => {
  it('need each other', async () => {
    // The reference's POST /messages 400 schema omits var_name, which Zulip sends.
    const noSchema = { skipSchema: true };
    let res = await member().post(
      '/messages',
      { ...streamMessage('general', 'x', 'y'), queue_id: 'abc' },
      noSchema,
    );
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'local_id' });
    res = await member().post(
      '/messages',
      { ...streamMessage('general', 'x', 'y'), local_id: '1' },
      noSchema,
    );
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'queue_id' });
  });
});

describe('who may post', () => {
  it('lets members post to public channels they are not subscribed to', async () => {
    await sendOk(member(), streamMessage('quiet', 'drop-in', 'hello'));
  });

  it('keeps guests to channels they are subscribed to or web-public ones', async () => {
    const guest = t.as('guest');
    const res = await guest.post('/messages', streamMessage('quiet', 'x', 'y'));
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: "Not authorized to send to channel 'quiet'",
    });
    await sendOk(guest, streamMessage('general', 'guest', 'subscribed'));
    await sendOk(guest, streamMessage(web, 'guest', 'web-public'));
  });

  it('refuses private channels to non-subscribers, even administrators', async () => {
    for (const who of ['member', 'admin'] as const) {
      const res = await t.as(who).post('/messages', streamMessage(secret, 'x', 'y'));
      expect(res.body.msg).toBe("Not authorized to send to channel 'secret'");
    }
    await sendOk(t.as('owner'), streamMessage(secret, 'x', 'subscribed owner'));
  });

  it("follows the channel's can_send_message_group", async () => {
    const id = createChannel(t, { name: 'announce', subscribers: [t.accounts.member.id] });
    t.server.ctx.db
      .prepare('UPDATE streams SET permissions = ? WHERE id = ?')
      .run(JSON.stringify({ can_send_message_group: 'role:administrators' }), id);
    const res = await member().post('/messages', streamMessage(id, 'x', 'y'));
    expect(res.body.msg).toBe('You do not have permission to post in this channel.');
    await sendOk(t.as('admin'), streamMessage(id, 'x', 'admins may'));
  });

  it('refuses archived channels', async () => {
    const id = createChannel(t, { name: 'attic', subscribers: [t.accounts.member.id] });
    t.server.ctx.db.prepare('UPDATE streams SET is_archived = 1 WHERE id = ?').run(id);
    const res = await member().post('/messages', streamMessage(id, 'x', 'y'));
    expect(res.body.msg).toBe("Not authorized to send to channel 'attic'");
  });

  it('follows the direct-message permission settings', async () => {
    const to = [t.accounts.admin.id];
    setRealm(t, { direct_message_permission_group: 'role:nobody' });
    try {
      const res = await member().post('/messages', { type: 'direct', to, content: 'x' });
      expect(res.body.msg).toBe('Direct messages are disabled in this organization.');
      // Messages to bots (and to oneself) stay possible.
      await sendOk(member(), { type: 'direct', to: [t.accounts.bot.id], content: 'bot' });
    } finally {
      setRealm(t, { direct_message_permission_group: 'role:everyone' });
    }
    setRealm(t, { direct_message_initiator_group: 'role:administrators' });
    try {
      const fresh = await t.createMember('Fresh Face');
      const res = await member().post('/messages', {
        type: 'direct',
        to: [fresh.id],
        content: 'x',
      });
      expect(res.body.msg).toBe(
        'You do not have permission to initiate direct message conversations.',
      );
      // An existing conversation may continue.
      await sendOk(member(), { type: 'direct', to: [t.accounts.owner.id], content: 'again' });
    } finally {
      setRealm(t, { direct_message_initiator_group: 'role:everyone' });
    }
  });
});

describe('automatic topic visibility', () => {
  it('follows a topic the sender starts and says so once', async () => {
    let res = await member().post('/messages', streamMessage('general', 'fresh start', 'one'));
    expect(res.body.automatic_new_visibility_policy).toBe(3);
    res = await member().post('/messages', streamMessage('general', 'fresh start', 'two'));
    expect(res.body).not.toHaveProperty('automatic_new_visibility_policy');
    // Someone else's topic: no initiation, no change.
    res = await t.as('admin').post('/messages', streamMessage('general', 'fresh start', 'reply'));
    expect(res.body).not.toHaveProperty('automatic_new_visibility_policy');
  });
});
