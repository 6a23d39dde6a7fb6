/**
 * Zulip answers a narrow it cannot build with code BAD_NARROW and the
 * description in `desc` (BadNarrowOperatorError, InvalidOperatorCombinationError),
 * wherever a narrow is parsed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let messageId: number;

beforeAll(async () => {
  t = await startTestServer();
  createChannel(t, { name: 'general', subscribers: [t.accounts.member.id, t.accounts.owner.id] });
  messageId = await sendToChannel(t, 'member', 'general', 'lunch', 'hello');
});
afterAll(() => t.close());

function expectBadNarrow(res: ApiResponse, desc: string, combination = false) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({
    result: 'error',
    code: 'BAD_NARROW',
    msg: `Invalid narrow operator${combination ? ' combination' : ''}: ${desc}`,
    desc,
  });
}

const endpoints = {
  'GET /messages': (narrow: unknown) =>
    t.as('member').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow }),
  'POST /messages/flags/narrow': (narrow: unknown) =>
    t.as('member').post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow,
      op: 'add',
      flag: 'starred',
    }),
  'GET /messages/matches_narrow': (narrow: unknown) =>
    t.as('member').get('/messages/matches_narrow', { msg_ids: [messageId], narrow }),
};

describe.each(Object.entries(endpoints))('%s', (_, request) => {
  it('an unknown operator, operand, channel or user is BAD_NARROW with desc', async () => {
    expectBadNarrow(await request([['foo', 'bar']]), 'unknown operator foo');
    expectBadNarrow(await request([['is', 'shiny']]), "unknown 'is' operand shiny");
    expectBadNarrow(await request([['stream', 'nowhere']]), 'unknown channel nowhere');
    expectBadNarrow(
      await request([['sender', 'ghost@example.com']]),
      'unknown user ghost@example.com',
    );
  });

  it('a channel term and a direct-message term together are refused', async () => {
    const desc = 'No message can be both a channel message and direct message';
    expectBadNarrow(
      await request([
        ['stream', 'general'],
        ['is', 'dm'],
      ]),
      desc,
    );
    expectBadNarrow(
      await request([
        { operator: 'dm', operand: [t.accounts.owner.id] },
        { operator: 'topic', operand: 'lunch' },
      ]),
      desc,
    );
    // `-is:dm` asks for channel messages; a negated channel term asks for nothing.
    expectBadNarrow(
      await request([
        { operator: 'is', operand: 'dm', negated: true },
        { operator: 'dm', operand: [t.accounts.owner.id] },
      ]),
      desc,
    );
    const negated = await request([
      { operator: 'stream', operand: 'general', negated: true },
      { operator: 'is', operand: 'dm' },
    ]);
    expect(negated.status, JSON.stringify(negated.body)).toBe(200);
  });

  it('two with: terms are an invalid combination', async () => {
    expectBadNarrow(
      await request([
        ['with', String(messageId)],
        ['with', String(messageId)],
      ]),
      "Duplicate 'with' operators.",
      true,
    );
    expectBadNarrow(await request([['with', 'abc']]), "Invalid 'with' operator");
  });
});

describe('legacy operator spellings', () => {
  it('accepts pm_with and group_pm_with as Zulip still does', async () => {
    const res = await endpoints['GET /messages']([
      ['pm_with', t.accounts.owner.email],
      ['group_pm_with', t.accounts.owner.email],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
