import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let secret = 0;
let open = 0;
let secretMsg = 0;
let openMsg = 0;
let dmMsg = 0;
beforeAll(async () => {
  t = await startTestServer();
  const a = t.accounts;
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  open = createChannel(t, { name: 'open', subscribers: [a.owner.id, a.member.id, a.guest.id] });
  secretMsg = await sendToChannel(t, 'owner', secret, 't', 'x');
  openMsg = await sendToChannel(t, 'owner', open, 't', 'y');
  dmMsg = await sendDirect(t, 'owner', [a.admin.id], 'z');
});
afterAll(() => t.close());

describe('message, flag, reaction and typing endpoints', () => {
  /** Hostile or odd input on every message, flag, reaction and typing endpoint: never a 500. */
  it('answers hostile input with JSON errors, never a server error', async () => {
    const out: string[] = [];
    const log = (label: string, r: { status: number; body: unknown }) =>
      out.push(`${label} -> ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    const m = t.as('member');
    const g = t.as('guest');
    const opts = { skipSchema: true };
    for (const [who, c] of [
      ['member', m],
      ['guest', g],
    ] as const) {
      for (const id of [secretMsg, dmMsg, 999999]) {
        log(
          `${who} flags remove read ${id}`,
          await c.post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' }, opts),
        );
        log(
          `${who} flags add read ${id}`,
          await c.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }, opts),
        );
        log(
          `${who} flags add starred ${id}`,
          await c.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }, opts),
        );
        log(
          `${who} flags remove starred ${id}`,
          await c.post('/messages/flags', { messages: [id], op: 'remove', flag: 'starred' }, opts),
        );
        log(
          `${who} react ${id}`,
          await c.post(`/messages/${id}/reactions`, { emoji_name: 'smile' }, opts),
        );
        log(
          `${who} unreact ${id}`,
          await c.delete(`/messages/${id}/reactions`, { emoji_name: 'smile' }, opts),
        );
        log(`${who} get ${id}`, await c.get(`/messages/${id}`, {}, opts));
        log(`${who} history ${id}`, await c.get(`/messages/${id}/history`, {}, opts));
        log(`${who} patch ${id}`, await c.patch(`/messages/${id}`, { content: 'hack' }, opts));
        log(`${who} patch topic ${id}`, await c.patch(`/messages/${id}`, { topic: 'hack' }, opts));
        log(`${who} delete ${id}`, await c.delete(`/messages/${id}`, {}, opts));
        log(
          `${who} ids ${id}`,
          await c.get('/messages', { message_ids: JSON.stringify([id]) }, opts),
        );
        log(
          `${who} matches ${id}`,
          await c.get(
            '/messages/matches_narrow',
            { msg_ids: JSON.stringify([id]), narrow: '[]' },
            opts,
          ),
        );
        log(
          `${who} with ${id}`,
          await c.get(
            '/messages',
            {
              anchor: 'newest',
              num_before: 5,
              narrow: JSON.stringify([{ operator: 'with', operand: id }]),
            },
            opts,
          ),
        );
        log(
          `${who} id ${id}`,
          await c.get(
            '/messages',
            {
              anchor: 'newest',
              num_before: 5,
              narrow: JSON.stringify([{ operator: 'id', operand: id }]),
            },
            opts,
          ),
        );
        log(
          `${who} near ${id}`,
          await c.get('/messages', { anchor: id, num_before: 5, num_after: 5 }, opts),
        );
      }
      log(
        `${who} mark topic`,
        await c.post('/mark_topic_as_read', { stream_id: secret, topic_name: 't' }, opts),
      );
      log(`${who} mark stream`, await c.post('/mark_stream_as_read', { stream_id: secret }, opts));
      log(
        `${who} typing`,
        await c.post(
          '/typing',
          { type: 'stream', op: 'start', stream_id: secret, topic: 't' },
          opts,
        ),
      );
      log(
        `${who} user_topics`,
        await c.post('/user_topics', { stream_id: secret, topic: 't', visibility_policy: 1 }, opts),
      );
      log(
        `${who} user_topics0`,
        await c.post('/user_topics', { stream_id: secret, topic: 't', visibility_policy: 0 }, opts),
      );
      log(
        `${who} flags narrow channel`,
        await c.post(
          '/messages/flags/narrow',
          {
            anchor: 'oldest',
            num_before: 0,
            num_after: 10,
            narrow: JSON.stringify([{ operator: 'channel', operand: secret }]),
            op: 'add',
            flag: 'starred',
          },
          opts,
        ),
      );
      log(
        `${who} move into secret`,
        await c.patch(`/messages/${openMsg}`, { stream_id: secret }, opts),
      );
    }
    const hostile = [
      ['GET', '/messages', { anchor: '99999999999999999999999', num_before: 3 }],
      ['GET', '/messages', { anchor: '-99999999999999999999999', num_after: 3 }],
      ['GET', '/messages', { anchor: 'x', num_after: 3 }],
      ['GET', '/messages', { anchor: '', num_after: 3 }],
      ['GET', '/messages', { anchor: '2025-13-45', num_after: 3 }],
      ['GET', '/messages', { anchor: '9999-12-31T23:59:59Z', num_after: 3 }],
      ['GET', '/messages', { anchor: '0000-01-01', num_after: 3 }],
      ['GET', '/messages', { anchor: 'newest', num_before: -1 }],
      ['GET', '/messages', { anchor: 'newest', num_before: 1e20 }],
      [
        'GET',
        '/messages',
        {
          anchor: 'newest',
          num_before: 5,
          narrow: '[{"operator":"id","operand":"99999999999999999999999"}]',
        },
      ],
      [
        'GET',
        '/messages',
        {
          anchor: 'newest',
          num_before: 5,
          narrow: '[{"operator":"near","operand":"99999999999999999999999"}]',
        },
      ],
      [
        'GET',
        '/messages',
        { narrow: '[{"operator":"near","operand":"99999999999999999999999"}]', num_before: 5 },
      ],
      [
        'GET',
        '/messages',
        {
          anchor: 'newest',
          num_before: 5,
          narrow: '[{"operator":"with","operand":"99999999999999999999999"}]',
        },
      ],
      [
        'GET',
        '/messages',
        {
          anchor: 'newest',
          num_before: 5,
          narrow: '[{"operator":"search","operand":"\\"\\" OR NEAR( *"}]',
        },
      ],
      [
        'GET',
        '/messages',
        { anchor: 'newest', num_before: 5, narrow: '[{"operator":"search","operand":"\\u0000"}]' },
      ],
      [
        'GET',
        '/messages',
        { anchor: 'newest', num_before: 5, narrow: '[{"operator":"dm","operand":[]}]' },
      ],
      [
        'GET',
        '/messages',
        { anchor: 'newest', num_before: 5, narrow: '[{"operator":"dm","operand":""}]' },
      ],
      [
        'GET',
        '/messages',
        { anchor: 'newest', num_before: 5, narrow: '[{"operator":"dm","operand":[99999999]}]' },
      ],
      [
        'GET',
        '/messages',
        { anchor: 'newest', num_before: 5, narrow: '[{"operator":"sender","operand":99999999}]' },
      ],
      [
        'GET',
        '/messages',
        { anchor: 'newest', num_before: 5, narrow: '[{"operator":"sender","operand":""}]' },
      ],
      [
        'GET',
        '/messages',
        { anchor: 'newest', num_before: 5, narrow: '[{"operator":"channel","operand":""}]' },
      ],
      [
        'GET',
        '/messages',
        { anchor: 'newest', num_before: 5, narrow: '[{"operator":"topic","operand":5}]' },
      ],
      [
        'GET',
        '/messages',
        {
          anchor: 'newest',
          num_before: 5,
          narrow: '[{"operator":"is","operand":"unread","negated":"yes"}]',
        },
      ],
      [
        'GET',
        '/messages',
        {
          anchor: 'newest',
          num_before: 5,
          narrow: '[{"operator":"with","operand":1},{"operator":"with","operand":2}]',
        },
      ],
      ['GET', '/messages', { anchor: 'newest', num_before: 5, narrow: '{"a":1}' }],
      ['GET', '/messages', { anchor: 'newest', num_before: 5, narrow: '[["stream"]]' }],
      ['GET', '/messages', { anchor: 'newest', num_before: 5, narrow: '[["constructor","x"]]' }],
      ['GET', '/messages', { anchor: 'newest', num_before: 5, narrow: '[["__proto__","x"]]' }],
      [
        'GET',
        '/messages',
        {
          anchor: 'first_unread',
          num_before: 5,
          num_after: 5,
          narrow: '[["is","unread"],["is","muted"]]',
        },
      ],
      ['GET', '/messages', { message_ids: '[]' }],
      ['GET', '/messages', { message_ids: '[-1, 99999999999999999]' }],
      ['GET', '/messages', { message_ids: '"x"' }],
      ['GET', '/messages/matches_narrow', { msg_ids: '[]', narrow: '[]' }],
      ['GET', '/messages/matches_narrow', { msg_ids: '[1]', narrow: '[["search","x"]]' }],
      ['POST', '/messages/flags', { messages: '[]', op: 'add', flag: 'read' }],
      ['POST', '/messages/flags', { messages: '[-5]', op: 'add', flag: 'starred' }],
      ['POST', '/messages/flags', { messages: '[1.5]', op: 'add', flag: 'starred' }],
      ['POST', '/messages/flags', { messages: '[1]', op: 'add', flag: '__proto__' }],
      ['POST', '/messages/flags', { messages: '[1]', op: 'add', flag: 'constructor' }],
      ['POST', '/messages/flags', { messages: '[1]', op: 'add', flag: 'toString' }],
      ['POST', '/messages/flags', { messages: '[1]', op: 'xx', flag: 'read' }],
      ['POST', '/messages/flags', { messages: '{"a":1}', op: 'add', flag: 'read' }],
      [
        'POST',
        '/messages/flags/narrow',
        { anchor: 'x', num_before: 0, num_after: 1, narrow: '[]', op: 'add', flag: 'read' },
      ],
      [
        'POST',
        '/messages/flags/narrow',
        {
          anchor: 'newest',
          num_before: 99999999,
          num_after: 99999999,
          narrow: '[]',
          op: 'add',
          flag: 'read',
        },
      ],
      [
        'POST',
        '/messages/flags/narrow',
        {
          anchor: 'first_unread',
          num_before: 10,
          num_after: 10,
          narrow: '[]',
          op: 'remove',
          flag: 'read',
        },
      ],
      [
        'POST',
        '/messages/flags/narrow',
        {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          narrow: '[]',
          op: 'add',
          flag: 'mentioned',
        },
      ],
      ['POST', '/mark_topic_as_read', { stream_id: open, topic_name: '\uD800' }],
      ['POST', '/mark_topic_as_read', { stream_id: open, topic_name: 'nope' }],
      ['POST', '/mark_topic_as_read', { stream_id: -1, topic_name: 'nope' }],
      ['POST', '/mark_stream_as_read', { stream_id: 99999999999 }],
      ['POST', '/user_topics', { stream_id: open, topic: '', visibility_policy: 1 }],
      ['POST', '/user_topics', { stream_id: -1, topic: 'x', visibility_policy: 0 }],
      ['POST', '/user_topics', { stream_id: open, topic: 'x'.repeat(61), visibility_policy: 1 }],
      ['POST', '/user_topics', { stream_id: open, topic: '\u0000', visibility_policy: 1 }],
      [
        'PATCH',
        '/users/me/subscriptions/muted_topics',
        { stream: 'nonexistent', topic: 'x', op: 'remove' },
      ],
      [
        'PATCH',
        '/users/me/subscriptions/muted_topics',
        { stream_id: 99999, topic: 'x', op: 'add' },
      ],
      ['POST', `/messages/${openMsg}/reactions`, { emoji_name: '' }],
      [
        'POST',
        `/messages/${openMsg}/reactions`,
        { emoji_name: 'x', emoji_code: '', reaction_type: 'unicode_emoji' },
      ],
      [
        'POST',
        `/messages/${openMsg}/reactions`,
        { emoji_name: 'x', emoji_code: '99999999999999999999999', reaction_type: 'realm_emoji' },
      ],
      [
        'POST',
        `/messages/${openMsg}/reactions`,
        { emoji_name: 'x', emoji_code: 'zz', reaction_type: 'bogus' },
      ],
      [
        'POST',
        `/messages/${openMsg}/reactions`,
        { emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji' },
      ],
      [
        'POST',
        `/messages/${openMsg}/reactions`,
        { emoji_name: 'smile', emoji_code: '1f604-', reaction_type: 'unicode_emoji' },
      ],
      ['POST', `/messages/${openMsg}/reactions`, { emoji_name: 'constructor' }],
      ['POST', `/messages/${openMsg}/reactions`, { emoji_name: '__proto__' }],
      ['DELETE', `/messages/${openMsg}/reactions`, {}],
      ['DELETE', `/messages/${openMsg}/reactions`, { emoji_name: 'constructor' }],
      ['DELETE', `/messages/${openMsg}/reactions`, { emoji_code: '' }],
      ['POST', '/typing', { op: 'start', to: '[]' }],
      ['POST', '/typing', { op: 'start', to: '[99999999999999999999]' }],
      ['POST', '/typing', { op: 'start', to: '{"a":1}' }],
      ['POST', '/typing', { op: 'start', to: '[null]' }],
      ['POST', '/typing', { op: 'start', to: '' }],
      ['POST', '/typing', { op: 'start', to: 'nobody@x' }],
      ['POST', '/typing', { type: 'stream', op: 'start', stream_id: 99999, topic: 'x' }],
      ['POST', '/typing', { type: 'stream', op: 'start', stream_id: open, topic: '' }],
      ['PATCH', `/messages/${openMsg}`, { topic: '\u0000x' }],
      ['PATCH', `/messages/${openMsg}`, { topic: '   ' }],
      ['PATCH', `/messages/${openMsg}`, { topic: 'x'.repeat(500) }],
      ['PATCH', `/messages/${openMsg}`, { stream_id: 99999 }],
      ['PATCH', `/messages/${openMsg}`, { stream_id: 0 }],
      ['PATCH', `/messages/${openMsg}`, { content: '' }],
      ['PATCH', `/messages/${openMsg}`, { content: '\u0000' }],
      ['PATCH', `/messages/${openMsg}`, { content: 'x'.repeat(20000) }],
      ['PATCH', `/messages/${openMsg}`, { prev_content_sha256: 'x' }],
      ['PATCH', `/messages/${dmMsg}`, { topic: 'x' }],
      ['PATCH', '/messages/99999999999999999999', { content: 'x' }],
      ['DELETE', '/messages/0', {}],
      ['GET', '/messages/99999999999999999999/history', {}],
      ['POST', '/messages/render', { content: '' }],
      ['POST', '/messages/render', { content: '\u0000' }],
      ['POST', '/messages/render', { content: 'x'.repeat(200000) }],
      ['POST', '/messages', { type: 'stream', to: '[]', topic: 'x', content: 'x' }],
      ['POST', '/messages', { type: 'stream', to: '[1e400]', topic: 'x', content: 'x' }],
      ['POST', '/messages', { type: 'stream', to: 'null', topic: 'x', content: 'x' }],
      ['POST', '/messages', { type: 'stream', to: '"secret"', topic: 'x', content: 'x' }],
      ['POST', '/messages', { type: 'stream', to: String(secret), topic: 'x', content: 'x' }],
      ['POST', '/messages', { type: 'stream', to: 'open', topic: '\u0000', content: 'x' }],
      ['POST', '/messages', { type: 'stream', to: 'open', topic: '\uD800', content: '\uD800' }],
      ['POST', '/messages', { type: 'direct', to: '[]', content: 'x' }],
      ['POST', '/messages', { type: 'direct', to: '[[1]]', content: 'x' }],
      ['POST', '/messages', { type: 'direct', to: '[{}]', content: 'x' }],
      ['POST', '/messages', { type: 'direct', to: ',,,', content: 'x' }],
      [
        'POST',
        '/messages',
        { type: 'direct', to: '[1]', content: 'x', queue_id: 'nope', local_id: 'x' },
      ],
    ] as const;
    for (const [method, path, params] of hostile) {
      const r = await m.request(method, path, params as Record<string, unknown>, opts);
      log(`${method} ${path} ${JSON.stringify(params).slice(0, 120)}`, r);
    }
    expect(out.filter((l) => / -> 5\d\d /.test(l))).toEqual([]);
  }, 120_000);
});
