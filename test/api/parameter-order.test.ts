/**
 * Zulip's typed_endpoint reads a view's parameters in the order the view
 * declares them (its current views list them alphabetically) and answers
 * the first problem: with several wrong or missing, that one is reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const missing = (name: string) => ({
  result: 'error',
  code: 'REQUEST_VARIABLE_MISSING',
  msg: `Missing '${name}' argument`,
  var_name: name,
});
const bad = (msg: string) => ({ result: 'error', code: 'BAD_REQUEST', msg });

describe('the first parameter in Zulip’s order is the one reported', () => {
  it.each([
    ['POST', '/messages', {}, missing('content')],
    ['POST', '/scheduled_messages', {}, missing('content')],
    ['POST', '/messages/flags', {}, missing('flag')],
    ['POST', '/messages/flags/narrow', { anchor: 'newest' }, missing('flag')],
    [
      'GET',
      '/messages',
      { num_before: 'many', narrow: 'nonsense' },
      bad('narrow is not valid JSON'),
    ],
    ['POST', '/mark_topic_as_read', {}, missing('topic_name')],
    [
      'POST',
      '/messages/1/report',
      { description: 'x'.repeat(1001) },
      bad('description is too long (limit: 1000 characters)'),
    ],
    [
      'PATCH',
      '/scheduled_messages/1',
      { to: '[1.5]', content: 'x', scheduled_delivery_timestamp: 'soon' },
      bad('scheduled_delivery_timestamp is not valid JSON'),
    ],
    [
      'POST',
      '/user_groups/1/members',
      { delete_subgroups: 'x', delete: 'z', add_subgroups: 'y' },
      bad('add_subgroups is not valid JSON'),
    ],
    [
      'PATCH',
      '/user_groups/1',
      { name: 5, deactivated: 'x', can_join_group: 'y' },
      bad('can_join_group is not valid JSON'),
    ],
  ] as const)('%s %s', async (method, path, params, error) => {
    const res = await t.as('member').request(method, path, params, { skipSchema: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error);
  });

  it('POST /realm/profile_fields', async () => {
    const res = await t
      .as('admin')
      .post('/realm/profile_fields', { required: 'perhaps' }, { skipSchema: true });
    expect(res.body).toEqual(missing('field_type'));
  });
});
