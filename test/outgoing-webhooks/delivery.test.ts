import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';

/** What the fake bot server answers: a status and body, or never (to time out). */
type Answer = { status: number; body: string } | 'hang';

interface Hook {
  url: string;
  received: Record<string, unknown>[];
  answer: Answer;
  /** Resolves on the next request. */
  next(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** A bot server on loopback, on an ephemeral port. */
async function startHook(): Promise<Hook> {
  const waiters: ((body: Record<string, unknown>) => void)[] = [];
  const hanging: ServerResponse[] = [];
  const hook: Partial<Hook> & { received: Record<string, unknown>[] } = {
    received: [],
    answer: { status: 200, body: JSON.stringify({ response_not_required: true }) },
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      body.__contentType = req.headers['content-type'];
      hook.received.push(body);
      const answer = hook.answer!;
      if (answer === 'hang') hanging.push(res);
      else {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      }
      for (const waiter of waiters.splice(0)) waiter(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  hook.url = `http://127.0.0.1:${port}/hook`;
  hook.next = () => new Promise((resolve) => waiters.push(resolve));
  hook.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return hook as Hook;
}

async function makeOutgoingBot(t: TestServer, url: string, name: string): Promise<Account> {
  const short = name.toLowerCase().replace(/[^a-z]/g, '');
  const res = await t.as('member').post('/bots', {
    full_name: name,
    short_name: short,
    bot_type: 3,
    payload_url: JSON.stringify(url),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.user_id as number;
  const profile = await t.as('member').get(`/users/${id}`);
  return { id, email: profile.body.user.email, apiKey: res.body.api_key, password: null };
}

/** Messages `who` can see in a narrow, newest last. */
async function messagesIn(t: TestServer, who: 'member' | 'admin', narrow: unknown[]) {
  const res = await t.as(who).get('/messages', {
    anchor: 'newest',
    num_before: 50,
    num_after: 0,
    narrow: JSON.stringify(narrow),
    apply_markdown: false,
  });
  expect(res.status).toBe(200);
  return res.body.messages as Record<string, unknown>[];
}

/** Waits until `check` passes (deliveries are asynchronous). */
async function eventually<T>(check: () => Promise<T>, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('outgoing webhooks', () => {
  let t: TestServer;
  let hook: Hook;
  let other: Hook;
  let bot: Account;
  let otherBot: Account;
  let channel: number;

  beforeAll(async () => {
    t = await startTestServer({ outgoingWebhookTimeoutMs: 400 });
    hook = await startHook();
    other = await startHook();
    bot = await makeOutgoingBot(t, hook.url, 'Echo Bot');
    otherBot = await makeOutgoingBot(t, other.url, 'Other Bot');
    channel = createChannel(t, {
      name: 'hooks',
      subscribers: [t.accounts.member.id, t.accounts.admin.id, bot.id],
    });
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
    await other.close();
  });
  afterEach(async () => {
    await settle();
    hook.received.length = 0;
    other.received.length = 0;
    hook.answer = { status: 200, body: JSON.stringify({ response_not_required: true }) };
  });

  it('posts Zulip’s payload on a mention and replies in the same topic', async () => {
    hook.answer = { status: 200, body: JSON.stringify({ content: 'pong' }) };
    const got = hook.next();
    const id = await sendToChannel(t, 'admin', channel, 'ping topic', '@**Echo Bot** ping');
    const body = await got;
    expect(body.__contentType).toMatch(/^application\/json/);
    expect(body.data).toBe('@**Echo Bot** ping');
    expect(body.trigger).toBe('mention');
    expect(body.bot_email).toBe(bot.email);
    expect(body.bot_full_name).toBe('Echo Bot');
    expect(typeof body.token).toBe('string');
    expect((body.token as string).length).toBeGreaterThan(0);
    const message = body.message as Record<string, unknown>;
    expect(message.id).toBe(id);
    expect(message.type).toBe('stream');
    expect(message.stream_id).toBe(channel);
    expect(message.subject).toBe('ping topic');
    expect(message.content).toBe('@**Echo Bot** ping');
    expect(message.rendered_content).toContain('user-mention');
    expect(message.sender_id).toBe(t.accounts.admin.id);
    expect(message.display_recipient).toBe('hooks');
    expect(message).not.toHaveProperty('flags');

    const reply = await eventually(async () => {
      const msgs = await messagesIn(t, 'member', [
        { operator: 'channel', operand: channel },
        { operator: 'topic', operand: 'ping topic' },
      ]);
      const last = msgs.at(-1)!;
      expect(last.sender_id).toBe(bot.id);
      return last;
    });
    expect(reply.content).toBe('pong');
    // The bot's own reply triggers nothing (no loops).
    await settle();
    expect(hook.received).toHaveLength(1);
    expect(other.received).toHaveLength(0);
  });

  it('a direct message triggers direct_message and the reply goes to the conversation', async () => {
    hook.answer = { status: 200, body: JSON.stringify({ content: 'hi back' }) };
    const got = hook.next();
    const id = await sendDirect(t, 'member', [bot.id], 'hello bot');
    const body = await got;
    expect(body.trigger).toBe('direct_message');
    expect(body.data).toBe('hello bot');
    expect((body.message as Record<string, unknown>).id).toBe(id);
    expect((body.message as Record<string, unknown>).type).toBe('private');
    const reply = await eventually(async () => {
      const msgs = await messagesIn(t, 'member', [{ operator: 'dm', operand: [bot.id] }]);
      const last = msgs.at(-1)!;
      expect(last.sender_id).toBe(bot.id);
      return last;
    });
    expect(reply.content).toBe('hi back');
  });

  it('response_not_required posts nothing', async () => {
    const got = hook.next();
    await sendToChannel(t, 'admin', channel, 'quiet', '@**Echo Bot** shh');
    await got;
    await settle();
    const msgs = await messagesIn(t, 'member', [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: 'quiet' },
    ]);
    expect(msgs.map((m) => m.sender_id)).toEqual([t.accounts.admin.id]);
  });

  it('other messages and other bots do not trigger', async () => {
    await sendToChannel(t, 'admin', channel, 'no mention', 'Echo Bot is just named here');
    await sendToChannel(t, 'admin', channel, 'silent', '@_**Echo Bot** silently');
    await sendToChannel(t, 'admin', channel, 'wildcard', '@**all** hello');
    await sendDirect(t, 'admin', [t.accounts.member.id], 'between people');
    // A bot's own messages (even mentioning or messaging a hook bot) never trigger.
    await sendDirect(t, t.accounts.bot, [bot.id], 'bot to bot');
    await settle();
    expect(hook.received).toHaveLength(0);
    expect(other.received).toHaveLength(0);
    // Mentioning the other bot calls only its server (even though it is not subscribed).
    const got = other.next();
    await sendToChannel(t, 'admin', channel, 'other', '@**Other Bot** you');
    const otherBody = await got;
    expect(otherBody.bot_full_name).toBe('Other Bot');
    expect(otherBody.bot_email).toBe(otherBot.email);
    await settle();
    expect(hook.received).toHaveLength(0);
    expect(other.received).toHaveLength(1);
  });

  it('bots made, deactivated and reactivated later are called exactly while active', async () => {
    // Messages before the bot exists: which users are hook bots is remembered between messages.
    await sendToChannel(t, 'admin', channel, 'before', '@**all** hello');
    const late = await startHook();
    try {
      const lateBot = await makeOutgoingBot(t, late.url, 'Late Bot');
      let got = late.next();
      await sendToChannel(t, 'admin', channel, 'late', '@**Late Bot** hi');
      expect((await got).bot_full_name).toBe('Late Bot');

      expect((await t.as('member').delete(`/bots/${lateBot.id}`)).status).toBe(200);
      await sendToChannel(t, 'admin', channel, 'late', '@**Late Bot** anyone?');
      await settle();
      expect(late.received).toHaveLength(1);

      expect((await t.as('admin').post(`/users/${lateBot.id}/reactivate`)).status).toBe(200);
      got = late.next();
      await sendToChannel(t, 'admin', channel, 'late', '@**Late Bot** back?');
      expect((await got).data).toBe('@**Late Bot** back?');
      expect(late.received).toHaveLength(2);
    } finally {
      await late.close();
    }
  });

  it('a bot mentioned in a private channel it is not in is told too', async () => {
    const secret = createChannel(t, {
      name: 'secret',
      private: true,
      subscribers: [t.accounts.admin.id],
    });
    const got = other.next();
    const id = await sendToChannel(t, 'admin', secret, 'hush', '@**Other Bot** psst');
    const body = await got;
    expect(body.trigger).toBe('mention');
    expect((body.message as Record<string, unknown>).id).toBe(id);
    expect((body.message as Record<string, unknown>).display_recipient).toBe('secret');
  });

  it('a 500 answer reports the failure in the conversation and to the bot owner', async () => {
    hook.answer = { status: 500, body: 'oops' };
    const got = hook.next();
    const id = await sendToChannel(t, 'admin', channel, 'broken', '@**Echo Bot** fail');
    await got;
    const notice = await eventually(async () => {
      const msgs = await messagesIn(t, 'member', [{ operator: 'dm', operand: [bot.id] }]);
      const last = msgs.at(-1)!;
      expect(last.content).toContain('triggered an outgoing webhook');
      return last;
    });
    expect(notice.sender_id).toBe(bot.id);
    expect(notice.content).toBe(
      `[A message](${t.server.url}/#narrow/channel/${channel}-hooks/topic/broken/near/${id}) to your bot @_**Echo Bot** triggered an outgoing webhook.\n` +
        "The webhook got a response with status code *500*.\nThe response contains the following payload:\n```\nb'oops'\n```",
    );
    const inTopic = await messagesIn(t, 'admin', [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: 'broken' },
    ]);
    expect(inTopic.at(-1)!.content).toBe('Failure! Third party responded with 500');
    // The owner notice goes to the owner only.
    const adminDms = await messagesIn(t, 'admin', [{ operator: 'dm', operand: [bot.id] }]);
    expect(adminDms).toHaveLength(0);
  });

  it('a timeout is reported to the bot owner with Zulip’s wording', async () => {
    hook.answer = 'hang';
    const got = hook.next();
    const started = Date.now();
    await sendDirect(t, 'admin', [bot.id], 'are you there?');
    // The sender's response does not wait for the bot.
    expect(Date.now() - started).toBeLessThan(400);
    await got;
    const notice = await eventually(async () => {
      const msgs = await messagesIn(t, 'member', [{ operator: 'dm', operand: [bot.id] }]);
      const last = msgs.at(-1)!;
      expect(last.content).toContain('Request timed out');
      return last;
    });
    expect(notice.content).toMatch(
      /^\[A message\]\(.*\/#narrow\/dm\/.*\/near\/\d+\) to your bot @_\*\*Echo Bot\*\* triggered an outgoing webhook\.\nRequest timed out after 0.4 seconds\.$/,
    );
    const failure = await eventually(async () => {
      const msgs = await messagesIn(t, 'admin', [{ operator: 'dm', operand: [bot.id] }]);
      const last = msgs.at(-1)!;
      expect(last.sender_id).toBe(bot.id);
      return last;
    });
    expect(failure.content).toBe('Failure! Request timed out after 0.4 seconds.');
  });

  it('an answer that is not JSON is reported', async () => {
    hook.answer = { status: 200, body: 'not json' };
    const got = hook.next();
    const id = await sendToChannel(t, 'admin', channel, 'garbled', '@**Echo Bot** hm');
    await got;
    const inTopic = await eventually(async () => {
      const msgs = await messagesIn(t, 'admin', [
        { operator: 'channel', operand: channel },
        { operator: 'topic', operand: 'garbled' },
      ]);
      expect(msgs.at(-1)!.sender_id).toBe(bot.id);
      return msgs.at(-1)!;
    });
    expect(inTopic.content).toBe('Failure! Invalid JSON in response');
    const notice = await eventually(async () => {
      const msgs = await messagesIn(t, 'member', [{ operator: 'dm', operand: [bot.id] }]);
      const last = msgs.at(-1)!;
      expect(last.content).toContain('/topic/garbled/');
      return last;
    });
    expect(notice.content).toBe(
      `[A message](${t.server.url}/#narrow/channel/${channel}-hooks/topic/garbled/near/${id}) to your bot @_**Echo Bot** triggered an outgoing webhook.\n` +
        'The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid JSON in response\n' +
        "The response contains the following payload:\n```\n'not json'\n```",
    );
  });
});
