/**
 * Zulip's conventions at /api/v1/external/{integration}, through the real
 * HTTP door: where the key may be, who may use it, where messages go
 * (stream by name or id, topic, the bot owner's direct messages), the
 * filters, and every kind of bad input answered with Zulip's code, nothing
 * posted and never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';
import {
  type Account,
  deliver,
  payload,
  postedSince,
  watermark,
  webhookSetup,
} from './webhooks.js';

let t: TestServer;
let bot: Account;
let channelId: number;

const JSON_PAYLOAD = { tool: 'thermostat', reading: 21.5 };

beforeAll(async () => {
  t = await startTestServer();
  ({ bot, channelId } = webhookSetup(t));
});
afterAll(() => t.close());

/** Delivers the generic JSON payload and returns the answer and what was posted. */
async function send(delivery: Parameters<typeof deliver>[2], integration = 'json') {
  const since = await watermark(t);
  const answer = await deliver(t, integration, { body: JSON_PAYLOAD, ...delivery });
  return { answer, posted: await postedSince(t, since) };
}

const SUCCESS = { status: 200, body: { result: 'success', msg: '' } };

describe('the key', () => {
  it('in the query string', async () => {
    const { answer, posted } = await send({ key: bot.apiKey, query: { stream: 'devel' } });
    expect(answer).toEqual(SUCCESS);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      sender: bot.id,
      channel: 'devel',
      topic: 'JSON',
      client: 'ZulipJSONWebhook',
    });
    expect(posted[0]!.content).toBe(
      '```json\n{\n  "tool": "thermostat",\n  "reading": 21.5\n}\n```',
    );
  });

  it('or in HTTP Basic credentials', async () => {
    const { answer, posted } = await send({
      query: { stream: 'devel' },
      headers: { authorization: basicAuth(bot.email, bot.apiKey) },
    });
    expect(answer).toEqual(SUCCESS);
    expect(posted).toHaveLength(1);
  });

  it('missing: REQUEST_VARIABLE_MISSING for api_key', async () => {
    const { answer, posted } = await send({ query: { stream: 'devel' } });
    expect(answer).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: "Missing 'api_key' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'api_key',
      },
    });
    expect(posted).toEqual([]);
  });

  it('wrong: 401 INVALID_API_KEY', async () => {
    const { answer, posted } = await send({ key: 'x'.repeat(32), query: { stream: 'devel' } });
    expect(answer).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' },
    });
    expect(posted).toEqual([]);
  });

  it('of a deactivated bot: 401 USER_DEACTIVATED', async () => {
    const other = webhookSetup(t, 'ops').bot;
    expect((await t.as('owner').delete(`/bots/${other.id}`)).status).toBe(200);
    const { answer } = await send({ key: other.apiKey, query: { stream: 'ops' } });
    expect(answer).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' },
    });
  });

  it('of a bot of another type works too, as in Zulip (webhook_view takes any active account)', async () => {
    const generic = t.accounts.bot;
    const { answer, posted } = await send({ key: generic.apiKey, query: { stream: 'devel' } });
    expect(answer).toEqual(SUCCESS);
    expect(posted[0]).toMatchObject({ sender: generic.id, channel: 'devel' });
  });

  it('of a person without a stream: a note to themselves (they own no bot)', async () => {
    const member = t.accounts.member;
    const { answer, posted } = await send({ key: member.apiKey });
    expect(answer).toEqual(SUCCESS);
    expect(posted[0]).toMatchObject({ sender: member.id, channel: null, recipients: [member.id] });
  });
});

describe('the incoming-webhook bot', () => {
  it('posts through these URLs and sends messages, and may do nothing else', async () => {
    const hook = t.as(bot);
    expect((await send({ key: bot.apiKey, query: { stream: 'devel' } })).answer).toEqual(SUCCESS);
    const sent = await hook.post('/messages', {
      type: 'stream',
      to: 'devel',
      topic: 'manual',
      content: 'hi',
    });
    expect(sent.body.result).toBe('success');
    const refused = await hook.get('/users/me');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      msg: 'This API is not available to incoming webhook bots.',
      code: 'UNAUTHORIZED',
    });
  });
});

describe('where messages go', () => {
  it('stream by id', async () => {
    const { answer, posted } = await send({
      key: bot.apiKey,
      query: { stream: String(channelId) },
    });
    expect(answer).toEqual(SUCCESS);
    expect(posted[0]).toMatchObject({ channel: 'devel', topic: 'JSON' });
  });

  it('topic overrides the integration’s', async () => {
    const { posted } = await send({
      key: bot.apiKey,
      query: { stream: 'devel', topic: 'Sensors' },
    });
    expect(posted[0]).toMatchObject({ channel: 'devel', topic: 'Sensors' });
  });

  it('without a stream: a direct message to the bot’s owner', async () => {
    const { answer, posted } = await send({ key: bot.apiKey });
    expect(answer).toEqual(SUCCESS);
    expect(posted[0]).toMatchObject({ sender: bot.id, channel: null });
    expect(posted[0]!.recipients.sort()).toEqual([t.accounts.member.id, bot.id].sort());
  });

  it('a channel that does not exist: success for the tool, a word to the owner, nothing posted there', async () => {
    const { answer, posted } = await send({ key: bot.apiKey, query: { stream: 'nowhere' } });
    expect(answer).toEqual(SUCCESS);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ sender: bot.id, channel: null });
    expect(posted[0]!.content).toContain('could not post to the channel nowhere');
    // The owner hears of it once, not at every retry.
    const again = await send({ key: bot.apiKey, query: { stream: 'nowhere' } });
    expect(again.answer).toEqual(SUCCESS);
    expect(again.posted).toEqual([]);
  });

  it('a channel the bot may not post in: the send’s error, nothing posted', async () => {
    createChannel(t, { name: 'secret', private: true, subscribers: [t.accounts.owner.id] });
    const { answer, posted } = await send({ key: bot.apiKey, query: { stream: 'secret' } });
    expect(answer.status).toBe(400);
    expect(answer.body.result).toBe('error');
    expect(posted).toEqual([]);
  });
});

describe('only_events and exclude_events', () => {
  const pushHeaders = { 'X-Gitea-Event': 'push' };
  const push = () => payload('gitea', 'push');

  it('only_events lets through what a pattern matches', async () => {
    const kept = await send(
      {
        key: bot.apiKey,
        query: { stream: 'devel', only_events: ['pu*', 'issues'] },
        headers: pushHeaders,
        body: push(),
      },
      'gitea',
    );
    expect(kept.answer).toEqual(SUCCESS);
    expect(kept.posted).toHaveLength(1);
    const dropped = await send(
      {
        key: bot.apiKey,
        query: { stream: 'devel', only_events: ['issue?', 'release'] },
        headers: pushHeaders,
        body: push(),
      },
      'gitea',
    );
    expect(dropped.answer).toEqual(SUCCESS);
    expect(dropped.posted).toEqual([]);
  });

  it('exclude_events drops what a pattern matches', async () => {
    const dropped = await send(
      {
        key: bot.apiKey,
        query: { stream: 'devel', exclude_events: ['[pq]ush'] },
        headers: pushHeaders,
        body: push(),
      },
      'gitea',
    );
    expect(dropped.answer).toEqual(SUCCESS);
    expect(dropped.posted).toEqual([]);
    const kept = await send(
      {
        key: bot.apiKey,
        query: { stream: 'devel', exclude_events: ['[!p]ush'] },
        headers: pushHeaders,
        body: push(),
      },
      'gitea',
    );
    expect(kept.posted).toHaveLength(1);
  });

  it('a list that is not JSON: Zulip’s parameter error', async () => {
    const { answer, posted } = await send(
      {
        key: bot.apiKey,
        query: { stream: 'devel', only_events: 'push' },
        headers: pushHeaders,
        body: push(),
      },
      'gitea',
    );
    expect(answer).toEqual({
      status: 400,
      body: { result: 'error', msg: 'only_events is not valid JSON', code: 'BAD_REQUEST' },
    });
    expect(posted).toEqual([]);
  });
});

describe('bad input: Zulip’s error, nothing posted, never a 500', () => {
  const expectNothing = async (delivery: Parameters<typeof deliver>[2], integration = 'json') => {
    const { answer, posted } = await send(delivery, integration);
    expect(posted).toEqual([]);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.result).toBe('error');
    return answer;
  };

  it('malformed JSON', async () => {
    const answer = await expectNothing({
      key: bot.apiKey,
      query: { stream: 'devel' },
      body: '{"tool": ',
    });
    expect(answer).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' },
    });
  });

  it('an empty body', async () => {
    const answer = await expectNothing({ key: bot.apiKey, query: { stream: 'devel' }, body: '' });
    expect(answer.body.code).toBe('INVALID_JSON');
  });

  it('bytes that are not UTF-8', async () => {
    const answer = await expectNothing({
      key: bot.apiKey,
      query: { stream: 'devel' },
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    expect(answer.body.code).toBe('INVALID_JSON');
  });

  it('the wrong content type: a multipart form, or a form without payload', async () => {
    const multipart = await expectNothing({
      key: bot.apiKey,
      query: { stream: 'devel' },
      contentType: 'multipart/form-data; boundary=x',
      body: '--x\r\nContent-Disposition: form-data; name="data"\r\n\r\n{}\r\n--x--\r\n',
    });
    expect(multipart.body.code).toBe('INVALID_JSON');
    const form = await expectNothing({
      key: bot.apiKey,
      query: { stream: 'devel' },
      contentType: 'application/x-www-form-urlencoded',
      body: 'text=hello',
    });
    expect(form).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: "Missing 'payload' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'payload',
      },
    });
  });

  it('JSON nested deeper than any tool’s', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const answer = await expectNothing({ key: bot.apiKey, query: { stream: 'devel' }, body: deep });
    expect(answer.body.code).toBe('INVALID_JSON');
  });

  it('a payload of another tool: ANOMALOUS_WEBHOOK_PAYLOAD', async () => {
    const answer = await expectNothing(
      {
        key: bot.apiKey,
        query: { stream: 'devel' },
        headers: { 'X-GitHub-Event': 'push' },
        body: payload('gitea', 'issues'),
      },
      'github',
    );
    expect(answer).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: 'Unable to parse request: Did GitHub generate this event?',
        code: 'ANOMALOUS_WEBHOOK_PAYLOAD',
        webhook_name: 'GitHub',
      },
    });
  });

  it('values of the wrong type where a tool always sends one kind', async () => {
    for (const body of [[1, 2, 3], 'just a string', 42, null, { ref: 5, commits: 'many' }]) {
      const answer = await expectNothing(
        {
          key: bot.apiKey,
          query: { stream: 'devel' },
          headers: { 'X-Gitea-Event': 'push' },
          body: JSON.stringify(body),
        },
        'gitea',
      );
      expect(answer.body.code).toBe('ANOMALOUS_WEBHOOK_PAYLOAD');
    }
  });

  it('a body over the server’s usual limit but within a webhook’s is read (8 MiB)', async () => {
    const { answer, posted } = await send({
      key: bot.apiKey,
      query: { stream: 'devel' },
      body: `{"x":"${'a'.repeat(5 * 1024 * 1024)}"}`,
    });
    expect(answer).toEqual(SUCCESS);
    expect(posted[0]!.content).toContain('more characters)');
  });

  it('a huge body: 413 REQUEST_TOO_LARGE', async () => {
    const answer = await expectNothing({
      key: bot.apiKey,
      query: { stream: 'devel' },
      body: `{"x":"${'a'.repeat(9 * 1024 * 1024)}"}`,
    });
    expect(answer).toEqual({
      status: 413,
      body: { result: 'error', msg: 'Request body too large', code: 'REQUEST_TOO_LARGE' },
    });
  });

  it('an integration Hearth does not have: 404', async () => {
    const answer = await expectNothing(
      { key: bot.apiKey, query: { stream: 'devel' } },
      'no-such-tool',
    );
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('NOT_FOUND');
    // The same key and body at an integration Hearth has are accepted.
    expect((await send({ key: bot.apiKey, query: { stream: 'devel' } })).answer).toEqual(SUCCESS);
  });
});
