/**
 * POST /messages and /scheduled_messages as Zulip's views check them: the
 * parameters in the order send_message_backend declares them, `to` read
 * before anything else, the addressee (Addressee.legacy_build) before the
 * content, the channel after it; Zulip's own texts for what is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { flagsOf } from './send-support.js';

let t: TestServer;
let general: number;

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false });
  general = createChannel(t, {
    name: 'general',
    subscribers: [t.accounts.member.id, t.accounts.owner.id],
  });
});
afterAll(() => t.close());

const member = () => t.as('member');
const post = (params: Record<string, unknown>) =>
  member().post('/messages', params, { skipSchema: true });
const badRequest = (msg: string) => ({ result: 'error', code: 'BAD_REQUEST', msg });

describe('POST /messages: what is missing', () => {
  it('names a missing channel, topic or recipients as Zulip does', async () => {
    expect((await post({ type: 'stream', topic: 't', content: 'x' })).body).toEqual(
      badRequest('Missing channel'),
    );
    expect((await post({ type: 'channel', to: 'general', content: 'x' })).body).toEqual(
      badRequest('Missing topic'),
    );
    expect((await post({ type: 'direct', content: 'x' })).body).toEqual(
      badRequest('Message must have recipients'),
    );
    expect((await post({ type: 'direct', to: '', content: 'x' })).body).toEqual(
      badRequest('Message must have recipients'),
    );
  });

  it('checks the parameters in the order Zulip declares them', async () => {
    // content before type
    expect((await post({ to: 'general' })).body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'content',
    });
    // the recipients as given before the content ...
    expect((await post({ type: 'direct', to: '[999999]', content: ' ' })).body).toEqual(
      badRequest('Invalid user ID 999999'),
    );
    expect(
      (await post({ type: 'stream', to: 'general', topic: 'a\uFFFEb', content: ' ' })).body,
    ).toEqual(badRequest('Invalid character in topic, at position 2!'));
    // ... and the content before the channel itself
    expect((await post({ type: 'stream', to: 'nowhere', topic: 't', content: ' ' })).body).toEqual(
      badRequest('Message must not be empty'),
    );
  });

  it('refuses a bare integer `to` for a direct message', async () => {
    expect(
      (await post({ type: 'direct', to: String(t.accounts.owner.id), content: 'x' })).body,
    ).toEqual(badRequest('Invalid data type for recipients'));
    expect((await post({ type: 'direct', to: '[1.5]', content: 'x' })).body).toEqual(
      badRequest('Invalid data type for recipients'),
    );
    expect(
      (await post({ type: 'direct', to: `[${t.accounts.owner.id}, "a@b.c"]`, content: 'x' })).body,
    ).toEqual(badRequest('Recipient lists may contain emails or user IDs, but not both.'));
  });

  it('refuses topics with Unicode non-characters', async () => {
    for (const topic of ['Test\uFFFETopic', 'Test\uFDD0Topic', 'Test\u{1FFFF}Topic']) {
      expect((await post({ type: 'stream', to: 'general', topic, content: 'x' })).body).toEqual(
        badRequest('Invalid character in topic, at position 5!'),
      );
    }
  });
});

describe('topic and subject', () => {
  const confusing = {
    result: 'error',
    code: 'REQUEST_CONFUSING_VAR',
    msg: "Can't decide between 'topic' and 'subject' arguments",
    var_name1: 'topic',
    var_name2: 'subject',
  };

  it('are refused together wherever both are accepted', async () => {
    const id = await sendOk(member(), { type: 'stream', to: 'general', topic: 'a', content: 'x' });
    const both = { topic: 'one', subject: 'two' };
    expect((await post({ type: 'stream', to: 'general', content: 'x', ...both })).body).toEqual(
      confusing,
    );
    expect((await member().patch(`/messages/${id}`, both, { skipSchema: true })).body).toEqual(
      confusing,
    );
    const scheduled = {
      type: 'stream',
      to: general,
      content: 'x',
      scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600,
    };
    expect(
      (await member().post('/scheduled_messages', { ...scheduled, ...both }, { skipSchema: true }))
        .body,
    ).toEqual(confusing);
    const created = await member().post('/scheduled_messages', { ...scheduled, topic: 'a' });
    const path = `/scheduled_messages/${created.body.scheduled_message_id}`;
    expect((await member().patch(path, both, { skipSchema: true })).body).toEqual(confusing);
  });
});

describe('client, forged and sender', () => {
  it("records the client parameter as the message's client and its read default", async () => {
    const fromWebsite = await sendOk(member(), {
      type: 'stream',
      to: 'general',
      topic: 'clients',
      content: 'typed in the web app',
      client: 'website',
    });
    const fromScript = await sendOk(member(), {
      type: 'stream',
      to: 'general',
      topic: 'clients',
      content: 'sent by a script',
      client: 'calendar-sync',
    });
    const fetched = await member().get(`/messages/${fromScript}`);
    expect(fetched.body.message.client).toBe('calendar-sync');
    expect((await member().get(`/messages/${fromWebsite}`)).body.message.client).toBe('website');
    expect(flagsOf(t, t.accounts.member.id, fromWebsite)).toContain('read');
    expect(flagsOf(t, t.accounts.member.id, fromScript)).not.toContain('read');
  });

  it('refuses forged messages and mirrored senders', async () => {
    const base = { type: 'stream', to: 'general', topic: 't', content: 'x' };
    for (const forged of ['true', 'yes']) {
      expect((await post({ ...base, forged })).body).toEqual(
        badRequest('User not authorized for this query'),
      );
    }
    const notForged = await post({ ...base, forged: 'false' });
    expect(notForged.status).toBe(200);
    expect(notForged.body.ignored_parameters_unsupported).toBeUndefined();
    expect((await post({ ...base, sender: 'someone@irc.example.com' })).body).toEqual(
      badRequest('Invalid mirrored message'),
    );
    expect((await post({ ...base, client: 'irc_mirror' })).body).toEqual(
      badRequest('Missing sender'),
    );
  });
});

describe('scheduled messages', () => {
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
  const schedule = (params: Record<string, unknown>) =>
    member().post(
      '/scheduled_messages',
      { content: 'later', scheduled_delivery_timestamp: inAnHour(), ...params },
      { skipSchema: true },
    );

  it('reads `to` as a channel id or a list of user ids, as Zulip does', async () => {
    expect((await schedule({ type: 'stream', to: 'general', topic: 't' })).body).toEqual(
      badRequest('to is not valid JSON'),
    );
    expect((await schedule({ type: 'stream', to: [general], topic: 't' })).body).toEqual(
      badRequest('Invalid data type for channel ID'),
    );
    expect((await schedule({ type: 'direct', to: t.accounts.owner.id })).body).toEqual(
      badRequest('Invalid data type for recipients'),
    );
    expect((await schedule({ type: 'direct', to: [t.accounts.owner.email] })).body).toEqual(
      badRequest('to["int"] is not an integer'),
    );
    expect((await schedule({ type: 'direct', to: [] })).body).toEqual(
      badRequest('Message must have recipients'),
    );
    expect((await schedule({ type: 'stream', to: general })).body).toEqual(
      badRequest('Missing topic'),
    );
  });

  it('refuses an edit that changes nothing, before looking the message up', async () => {
    const created = await schedule({ type: 'stream', to: general, topic: 't' });
    const id = created.body.scheduled_message_id;
    expectError(
      await member().patch(`/scheduled_messages/${id}`, {}),
      400,
      'BAD_REQUEST',
      'Nothing to change',
    );
    expectError(
      await member().patch('/scheduled_messages/999999', {}, { skipSchema: true }),
      400,
      'BAD_REQUEST',
      'Nothing to change',
    );
    expectError(
      await member().patch(
        '/scheduled_messages/999999',
        { type: 'stream', to: general },
        { skipSchema: true },
      ),
      400,
      'BAD_REQUEST',
      'Topic required when updating scheduled message type to channel.',
    );
    // A new topic alone is checked as a topic.
    const topicOnly = await member().patch(`/scheduled_messages/${id}`, { topic: 'renamed' });
    expect(topicOnly.status).toBe(200);
  });
});

describe('integers', () => {
  it('are integer literals, as Zulip reads Json[int]', async () => {
    expectError(
      await member().post('/user_topics', {
        stream_id: general,
        topic: 't',
        visibility_policy: '1.0',
      }),
      400,
      'BAD_REQUEST',
      'visibility_policy is not an integer',
    );
    expectError(
      await member().post('/user_topics', { stream_id: '1e3', topic: 't', visibility_policy: 1 }),
      400,
      'BAD_REQUEST',
      'stream_id is not an integer',
    );
  });

  it('are integer literals inside JSON parameters too, while floats stay floats', async () => {
    expectError(
      await member().post('/messages/flags', { messages: '[1.0]', op: 'add', flag: 'starred' }),
      400,
      'BAD_REQUEST',
      'messages[0] is not an integer',
    );
    const narrowed = await member().get(
      '/messages',
      { anchor: 'newest', narrow: '[{"operator":"id","operand":1.0}]' },
      { skipSchema: true },
    );
    expect(narrowed.body.msg).toBe('operand is not a string or integer');
    // A draft's timestamp is a float in Zulip: 1.0 is a time like any other.
    const draft = await member().post('/drafts', {
      drafts: '[{"type":"","to":[],"topic":"","content":"x","timestamp":1700000000.0}]',
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
  });
});
