import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userById } from '../../server/db/queries/users.js';
import { deliverDue, deliverDueScheduledMessages } from '../../server/scheduled/index.js';
import { type EventsByName, only, receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { expectValidResponse } from '../helpers/openapi.js';
import {
  type Account,
  type ApiClient,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { FakeClock } from '../messages/send-support.js';

let t: TestServer;
const clock = new FakeClock();
const nowSeconds = () => Math.floor(clock.ms / 1000);
const inAnHour = () => nowSeconds() + 3600;
let general: number;
let secret: number;
let watchers: Watchers;

beforeAll(async () => {
  // The cron job is off: delivery is run by hand after moving the clock.
  t = await startTestServer({ now: clock.now, scheduledDelivery: false });
  watchers = new Watchers(t);
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.moderator.id, a.member.id, a.guest.id, a.bot.id],
  });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  for (const who of ['owner', 'admin', 'member', 'guest', 'bot'] as const) {
    await watchers.add(who, who, { event_types: ['reminders'] });
  }
  await watchers.add('member:2', 'member', { event_types: ['reminders'] });
  await watchers.add('member:scheduled', 'member', { event_types: ['scheduled_messages'] });
  for (const who of ['member', 'owner'] as const) {
    await watchers.add(`${who}:messages`, who, { event_types: ['message'], apply_markdown: true });
  }
});
afterAll(() => t.close());

beforeEach(async () => {
  for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
    for (const r of await listOf(t.as(who))) {
      await t.as(who).delete(`/reminders/${r.reminder_id}`);
    }
    for (const m of (await t.as(who).get('/scheduled_messages')).body.scheduled_messages) {
      await t.as(who).delete(`/scheduled_messages/${m.scheduled_message_id}`);
    }
  }
  await watchers.clear();
});

const member = () => t.as('member');
const idOf = (who: FixtureName) => t.accounts[who].id;
const nameOf = (id: number) => userById(t.server.ctx.db, id)!.full_name;
const mention = (id: number) => `@_**${nameOf(id)}|${id}**`;

async function remindOk(client: ApiClient, params: Record<string, unknown>): Promise<number> {
  const res = await client.post('/reminders', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ result: 'success', msg: '', reminder_id: expect.any(Number) });
  return res.body.reminder_id as number;
}

async function listOf(client: ApiClient) {
  const res = await client.get('/reminders');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.reminders as Array<Record<string, unknown>>;
}

/** The reminder's stored Markdown, as the list shows it. */
async function contentOf(client: ApiClient, id: number): Promise<string> {
  const found = (await listOf(client)).find((r) => r.reminder_id === id);
  expect(found, `reminder ${id}`).toBeDefined();
  return found!.content as string;
}

/** POST /register's reminders, checked against the reference's Reminder object. */
async function registeredReminders(client: ApiClient) {
  // The reference types register's `reminders` as ScheduledMessage objects,
  // while Zulip sends (and its events use) Reminder objects: validate those.
  const res = await client.post(
    '/register',
    { fetch_event_types: ['reminders'] },
    { skipSchema: true },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectValidResponse('GET', '/reminders', 200, {
    result: 'success',
    msg: '',
    reminders: res.body.reminders,
  });
  return res.body.reminders as Array<Record<string, unknown>>;
}

const channelUrl = (messageId: number, topic = 'plans') =>
  `${t.url}/#narrow/channel/${general}-general/topic/${topic}/near/${messageId}`;
const dmUrl = (ids: number[], messageId: number) => {
  const sorted = [...ids].sort((a, b) => a - b);
  return `${t.url}/#narrow/dm/${sorted.join(',')}${sorted.length >= 3 ? '-group' : ''}/near/${messageId}`;
};

function expectError(
  res: { status: number; body: Record<string, unknown> },
  msg: string,
  status = 400,
  extra: Record<string, unknown> = {},
): void {
  expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg, ...extra });
  expect(res.status).toBe(status);
}

describe('POST /reminders', () => {
  it('reminds of a channel message with Zulip’s text, listed for its owner only', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'see you **soon**');
    const when = inAnHour();
    const id = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: when,
    });
    const owner = idOf('owner');
    const content =
      'You requested a reminder for the following message.\n\n' +
      `${mention(owner)} [said](${channelUrl(messageId)}) in #**general>plans@${messageId}**:\n` +
      '```quote\nsee you **soon**\n```';
    const list = await listOf(member());
    expect(list).toEqual([
      {
        reminder_id: id,
        type: 'private',
        to: [idOf('member')],
        content,
        rendered_content: expect.any(String),
        scheduled_delivery_timestamp: when,
        failed: false,
        reminder_target_message_id: messageId,
      },
    ]);
    const html = list[0]!.rendered_content as string;
    expect(html).toContain(`<span class="user-mention silent" data-user-id="${owner}">`);
    // Links into the organization render relative, as Zulip's do.
    expect(html).toContain(`href="${channelUrl(messageId).slice(t.url.length + 1)}"`);
    expect(html).toContain(
      `<a class="message-link" href="/#narrow/channel/${general}-general/topic/plans/near/${messageId}">`,
    );
    expect(html).toContain('<blockquote>\n<p>see you <strong>soon</strong></p>\n</blockquote>');
    for (const other of ['owner', 'admin', 'guest', 'bot'] as const) {
      expect(await listOf(t.as(other))).toEqual([]);
    }
  });

  it('reminds of direct messages: the sender said it to the others, or to themself', async () => {
    const a = t.accounts;
    const oneToOne = await sendDirect(t, 'owner', [a.member.id], 'psst');
    const group = await sendDirect(t, 'owner', [a.member.id, a.guest.id], 'hi all');
    const own = await sendDirect(t, 'member', [a.member.id], 'note to self');
    const ids = await Promise.all(
      [oneToOne, group, own].map((messageId, i) =>
        remindOk(member(), { message_id: messageId, scheduled_delivery_timestamp: inAnHour() + i }),
      ),
    );
    const dm = 'You requested a reminder for the following direct message.\n\n';
    expect(await contentOf(member(), ids[0]!)).toBe(
      `${dm}${mention(a.owner.id)} [said](${dmUrl([a.owner.id, a.member.id], oneToOne)}) to ${mention(a.member.id)}:\n` +
        '```quote\npsst\n```',
    );
    const [first, second] = [a.member.id, a.guest.id].sort((x, y) => x - y);
    expect(await contentOf(member(), ids[1]!)).toBe(
      `${dm}${mention(a.owner.id)} [said](${dmUrl([a.owner.id, a.member.id, a.guest.id], group)}) to ${mention(first!)} and ${mention(second!)}:\n` +
        '```quote\nhi all\n```',
    );
    expect(await contentOf(member(), ids[2]!)).toBe(
      `${dm}${mention(a.member.id)} [said](${dmUrl([a.member.id], own)}) to ${mention(a.member.id)}:\n` +
        '```quote\nnote to self\n```',
    );
    const list = await listOf(member());
    expect(list.map((r) => r.reminder_id)).toEqual(ids);
    for (const r of list) expect(r).toMatchObject({ type: 'private', to: [a.member.id] });
  });

  it('puts the note, normalized, before the quote; a blank note is no note', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'the report');
    const withNote = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour(),
      note: '\n\nRead it {before} Friday  \n',
    });
    expect(await contentOf(member(), withNote)).toBe(
      'You requested a reminder for the following message. Note:\n > Read it {before} Friday\n\n' +
        `${mention(idOf('owner'))} [said](${channelUrl(messageId)}) in #**general>plans@${messageId}**:\n` +
        '```quote\nthe report\n```',
    );
    const dmId = await sendDirect(t, 'owner', [idOf('member')], 'call me');
    const dmNote = await remindOk(member(), {
      message_id: dmId,
      scheduled_delivery_timestamp: inAnHour(),
      note: 'tomorrow',
    });
    expect(await contentOf(member(), dmNote)).toMatch(
      /^You requested a reminder for the following direct message\. Note:\n > tomorrow\n\n@_\*\*/,
    );
    for (const note of ['', '  \n ']) {
      const id = await remindOk(member(), {
        message_id: messageId,
        scheduled_delivery_timestamp: inAnHour(),
        note,
      });
      expect(await contentOf(member(), id)).toMatch(
        /^You requested a reminder for the following message\.\n\n@_\*\*/,
      );
    }
  });

  it('takes notes up to 1000 characters (after normalizing, in code points)', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'long notes');
    const ok = await Promise.all(
      ['n'.repeat(1000), `${'n'.repeat(1000)}   \n`, '😀'.repeat(1000)].map((note) =>
        member().post('/reminders', {
          message_id: messageId,
          scheduled_delivery_timestamp: inAnHour(),
          note,
        }),
      ),
    );
    expect(ok.map((r) => r.status)).toEqual([200, 200, 200]);
    await watchers.clear();
    const tooLong = await member().post('/reminders', {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour(),
      note: 'n'.repeat(1001),
    });
    expectError(tooLong, 'Maximum reminder note length: 1000 characters');
    expect((await listOf(member())).length).toBe(3);
    expect(receivers(await watchers.take())).toEqual([]);
    // POST /register announces the limit.
    const realm = await member().post('/register', { fetch_event_types: ['realm'] });
    expect(realm.body.max_reminder_note_length).toBe(1000);
  });

  it('names polls and todo lists instead of quoting them', async () => {
    const poll = await sendToChannel(t, 'owner', general, 'plans', '/poll Lunch?\nSoup\nSalad');
    const todo = await sendDirect(t, 'owner', [idOf('member')], '/todo Chores\nDishes');
    const pollReminder = await remindOk(member(), {
      message_id: poll,
      scheduled_delivery_timestamp: inAnHour(),
    });
    const todoReminder = await remindOk(member(), {
      message_id: todo,
      scheduled_delivery_timestamp: inAnHour(),
    });
    const owner = mention(idOf('owner'));
    expect(await contentOf(member(), pollReminder)).toBe(
      'You requested a reminder for the following message.\n\n' +
        `${owner} [sent](${channelUrl(poll)}) a poll in #**general>plans@${poll}**.`,
    );
    expect(await contentOf(member(), todoReminder)).toBe(
      'You requested a reminder for the following direct message.\n\n' +
        `${owner} [sent](${dmUrl([idOf('owner'), idOf('member')], todo)}) a todo list to ${mention(idOf('member'))}.`,
    );
  });

  it('links with plain Markdown where #**channel>topic@id** would break', async () => {
    const rd = createChannel(t, { name: 'R&D', subscribers: [idOf('owner'), idOf('member')] });
    const messageId = await sendToChannel(t, 'owner', rd, 'a > [b]', 'odd names');
    const id = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour(),
    });
    const path = `#narrow/channel/${rd}-R.26D/topic/a.20.3E.20.5Bb.5D`;
    expect(await contentOf(member(), id)).toBe(
      'You requested a reminder for the following message.\n\n' +
        `${mention(idOf('owner'))} [said](${t.url}/${path}/near/${messageId}) in ` +
        `[#R&amp;D > a &gt; &#91;b&#93; @ 💬](${path}/near/${messageId}):\n` +
        '```quote\nodd names\n```',
    );
  });

  it('quotes with a fence longer than any in the message, and truncates to the length limit', async () => {
    const fenced = await sendToChannel(t, 'owner', general, 'plans', '```\ncode\n```');
    const id = await remindOk(member(), {
      message_id: fenced,
      scheduled_delivery_timestamp: inAnHour(),
    });
    expect(await contentOf(member(), id)).toMatch(/:\n````quote\n```\ncode\n```\n````$/);

    const long = await sendToChannel(t, 'owner', general, 'plans', 'x'.repeat(10_000));
    const longId = await remindOk(member(), {
      message_id: long,
      scheduled_delivery_timestamp: inAnHour(),
    });
    const content = await contentOf(member(), longId);
    expect([...content].length).toBe(10_000);
    expect(content).toMatch(/:\n```quote\nx+\n\[message truncated\]\n```$/);
  });

  it('refuses a time that is not in the future', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'soon');
    for (const when of [nowSeconds(), nowSeconds() - 60]) {
      const res = await member().post('/reminders', {
        message_id: messageId,
        scheduled_delivery_timestamp: when,
      });
      expectError(res, 'Scheduled delivery time must be in the future.');
    }
    // The time is checked before the message.
    const both = await member().post('/reminders', {
      message_id: 999_999,
      scheduled_delivery_timestamp: nowSeconds(),
    });
    expectError(both, 'Scheduled delivery time must be in the future.');
    await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: nowSeconds() + 1,
    });
  });

  it('answers Invalid message(s) for messages the user cannot access', async () => {
    const a = t.accounts;
    const inSecret = await sendToChannel(t, 'owner', secret, 'hidden', 'classified');
    const othersDm = await sendDirect(t, 'owner', [a.admin.id], 'between us');
    const guestless = createChannel(t, { name: 'no guests', subscribers: [a.owner.id] });
    const inPublic = await sendToChannel(t, 'owner', guestless, 'open', 'for members');
    const cases: Array<[FixtureName, number]> = [
      ['member', 999_999],
      ['member', -1],
      ['member', inSecret],
      ['member', othersDm],
      ['admin', inSecret],
      // Guests see only channels they are subscribed to.
      ['guest', inPublic],
    ];
    for (const [who, messageId] of cases) {
      const res = await t.as(who).post('/reminders', {
        message_id: messageId,
        scheduled_delivery_timestamp: inAnHour(),
      });
      expectError(res, 'Invalid message(s)');
    }
    // Access is checked before the note.
    const longNote = await member().post('/reminders', {
      message_id: inSecret,
      scheduled_delivery_timestamp: inAnHour(),
      note: 'n'.repeat(1001),
    });
    expectError(longNote, 'Invalid message(s)');
    // Members see public channels they are not in.
    await remindOk(member(), { message_id: inPublic, scheduled_delivery_timestamp: inAnHour() });
    expect(receivers(only(await watchers.take(), 'reminders'))).toEqual(['member', 'member:2']);
  });

  it('follows history visibility of private channels', async () => {
    const a = t.accounts;
    const protectedHistory = createChannel(t, {
      name: 'protected',
      private: true,
      historyPublic: false,
      subscribers: [a.owner.id],
    });
    const before = await sendToChannel(t, 'owner', protectedHistory, 'log', 'before you came');
    const joined = await t.as('owner').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'protected' }],
      principals: [a.member.id],
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const after = await sendToChannel(t, 'owner', protectedHistory, 'log', 'after you came');
    const res = await member().post('/reminders', {
      message_id: before,
      scheduled_delivery_timestamp: inAnHour(),
    });
    expectError(res, 'Invalid message(s)');
    await remindOk(member(), { message_id: after, scheduled_delivery_timestamp: inAnHour() });
  });

  it('is open to every role and to bots', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'everyone');
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      const id = await remindOk(t.as(who), {
        message_id: messageId,
        scheduled_delivery_timestamp: inAnHour(),
      });
      expect(await listOf(t.as(who))).toEqual([
        expect.objectContaining({ reminder_id: id, to: [idOf(who)] }),
      ]);
    }
  });

  it('rejects missing and malformed parameters with JSON errors', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'params');
    await watchers.clear();
    const missing = await member().post('/reminders', { scheduled_delivery_timestamp: inAnHour() });
    expect(missing.body).toEqual({
      result: 'error',
      code: 'REQUEST_VARIABLE_MISSING',
      msg: "Missing 'message_id' argument",
      var_name: 'message_id',
    });
    expect(missing.status).toBe(400);
    const noTime = await member().post('/reminders', { message_id: messageId });
    expect(noTime.body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'scheduled_delivery_timestamp',
    });
    const notInt = await member().post('/reminders', {
      message_id: 'first',
      scheduled_delivery_timestamp: inAnHour(),
    });
    expectError(notInt, 'message_id is not valid JSON');
    const badTime = await member().post('/reminders', {
      message_id: messageId,
      scheduled_delivery_timestamp: 'tomorrow',
    });
    expectError(badTime, 'scheduled_delivery_timestamp is not valid JSON');
    expect(await listOf(member())).toEqual([]);
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('needs an authenticated user', async () => {
    const res = await t.anonymous().post('/reminders', {
      message_id: 1,
      scheduled_delivery_timestamp: inAnHour(),
    });
    expect(res.status).toBe(401);
  });
});

describe('GET /reminders', () => {
  it('lists the undelivered reminders soonest first, and no scheduled messages', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'order');
    const late = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour() + 60,
    });
    const early = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour(),
    });
    const scheduled = await member().post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'plans',
      content: 'scheduled, not a reminder',
      scheduled_delivery_timestamp: inAnHour(),
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect((await listOf(member())).map((r) => r.reminder_id)).toEqual([early, late]);
    // ... and the scheduled messages list holds no reminders.
    const list = await member().get('/scheduled_messages');
    expect(
      list.body.scheduled_messages.map(
        (m: { scheduled_message_id: number }) => m.scheduled_message_id,
      ),
    ).toEqual([scheduled.body.scheduled_message_id]);
  });
});

describe('DELETE /reminders/{reminder_id}', () => {
  it('deletes the owner’s reminder; anyone else, or a second time, gets 404', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'delete me');
    const id = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour(),
    });
    for (const who of ['owner', 'admin', 'guest'] as const) {
      expectError(await t.as(who).delete(`/reminders/${id}`), 'Reminder does not exist', 404);
    }
    expect((await listOf(member())).length).toBe(1);
    const res = await member().delete(`/reminders/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await listOf(member())).toEqual([]);
    expectError(await member().delete(`/reminders/${id}`), 'Reminder does not exist', 404);
    expectError(await member().delete('/reminders/999999'), 'Reminder does not exist', 404);
  });

  it('keeps reminders and scheduled messages apart', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'apart');
    const reminder = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour(),
    });
    const scheduled = await member().post('/scheduled_messages', {
      type: 'direct',
      to: [idOf('owner')],
      content: 'later',
      scheduled_delivery_timestamp: inAnHour(),
    });
    const scheduledId = scheduled.body.scheduled_message_id as number;
    expectError(await member().delete(`/reminders/${scheduledId}`), 'Reminder does not exist', 404);
    expectError(
      await member().delete(`/scheduled_messages/${reminder}`),
      'Scheduled message does not exist',
      404,
    );
    expectError(
      await member().patch(`/scheduled_messages/${reminder}`, { content: 'hijack' }),
      'Scheduled message does not exist',
      404,
    );
    expect((await listOf(member())).map((r) => r.reminder_id)).toEqual([reminder]);
  });
});

describe('reminders events', () => {
  it('add and remove reach exactly the owner’s queues', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'events');
    await watchers.clear();
    const when = inAnHour();
    const id = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: when,
      note: 'look',
    });
    const [reminder] = await listOf(member());
    let events = await watchers.take();
    expect(receivers(events)).toEqual(['member', 'member:2']);
    for (const name of ['member', 'member:2']) {
      expect(events[name]).toEqual([
        { id: expect.any(Number), type: 'reminders', op: 'add', reminders: [reminder] },
      ]);
    }
    expect(reminder).toMatchObject({
      reminder_id: id,
      scheduled_delivery_timestamp: when,
      reminder_target_message_id: messageId,
    });

    await member().delete(`/reminders/${id}`);
    events = await watchers.take();
    expect(receivers(events)).toEqual(['member', 'member:2']);
    expect(events.member).toEqual([
      { id: expect.any(Number), type: 'reminders', op: 'remove', reminder_id: id },
    ]);
  });

  it('scheduled messages send no reminders events, reminders no scheduled_messages events', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'separate');
    await watchers.clear();
    const scheduled = await member().post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'plans',
      content: 'scheduled',
      scheduled_delivery_timestamp: inAnHour(),
    });
    let events = await watchers.take();
    expect(receivers(events)).toEqual(['member:scheduled']);
    await member().delete(`/scheduled_messages/${scheduled.body.scheduled_message_id}`);
    expect(receivers(await watchers.take())).toEqual(['member:scheduled']);

    const id = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour(),
    });
    events = await watchers.take();
    expect(receivers(events)).toEqual(['member', 'member:2']);
    await member().delete(`/reminders/${id}`);
    expect(receivers(await watchers.take())).toEqual(['member', 'member:2']);
  });
});

describe('POST /register reminders', () => {
  it('holds the user’s undelivered reminders, before and after changes', async () => {
    expect(await registeredReminders(member())).toEqual([]);
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'state');
    const late = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour() + 60,
    });
    const early = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: inAnHour(),
    });
    const state = await registeredReminders(member());
    expect(state).toEqual(await listOf(member()));
    expect(state.map((r) => r.reminder_id)).toEqual([early, late]);
    expect(await registeredReminders(t.as('owner'))).toEqual([]);

    await member().delete(`/reminders/${early}`);
    expect((await registeredReminders(member())).map((r) => r.reminder_id)).toEqual([late]);

    // Only when asked for; and scheduled_messages holds none of them.
    const other = await member().post('/register', {
      fetch_event_types: ['scheduled_messages', 'message'],
    });
    expect(other.body).not.toHaveProperty('reminders');
    expect(other.body.scheduled_messages).toEqual([]);
  });
});

describe('delivery', () => {
  /** The delivered message's Markdown, as its recipient fetches it. */
  async function rawContent(client: ApiClient, messageId: number): Promise<string> {
    const res = await client.get(`/messages/${messageId}`, { apply_markdown: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.message.content;
  }

  function reminderMessages(events: EventsByName) {
    return only(events, 'message');
  }

  it('sends Notification Bot’s direct message at the time, and the reminder goes', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'deliver **me**');
    const id = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: nowSeconds() + 60,
      note: 'do it',
    });
    const stored = await contentOf(member(), id);
    await watchers.clear();

    expect(deliverDue(t.server.ctx).reminders).toEqual({ delivered: 0, failed: 0 });
    clock.advance(59);
    expect(deliverDue(t.server.ctx).reminders).toEqual({ delivered: 0, failed: 0 });
    expect(receivers(await watchers.take())).toEqual([]);
    clock.advance(1);
    expect(deliverDue(t.server.ctx)).toEqual({
      scheduledMessages: { delivered: 0, failed: 0 },
      reminders: { delivered: 1, failed: 0 },
    });

    const events = await watchers.take();
    const messages = reminderMessages(events);
    expect(receivers(messages)).toEqual(['member:messages']);
    const event = messages['member:messages']![0];
    expect(event.flags).not.toContain('read');
    expect(event.message).toMatchObject({
      type: 'private',
      sender_full_name: 'Notification Bot',
      timestamp: nowSeconds(),
    });
    const botId = event.message.sender_id as number;
    expect(userById(t.server.ctx.db, botId)).toMatchObject({ is_bot: 1 });
    expect(event.message.display_recipient.map((r: { id: number }) => r.id)).toEqual(
      [botId, idOf('member')].sort((x, y) => x - y),
    );
    expect(event.message.content).toContain('<blockquote>');
    expect(await rawContent(member(), event.message.id)).toBe(stored);
    expect(stored).toBe(
      'You requested a reminder for the following message. Note:\n > do it\n\n' +
        `${mention(idOf('owner'))} [said](${channelUrl(messageId)}) in #**general>plans@${messageId}**:\n` +
        '```quote\ndeliver **me**\n```',
    );

    const removed = only(events, 'reminders');
    expect(receivers(removed)).toEqual(['member', 'member:2']);
    expect(removed.member).toEqual([
      { id: expect.any(Number), type: 'reminders', op: 'remove', reminder_id: id },
    ]);
    expect(await listOf(member())).toEqual([]);
    expect(await registeredReminders(member())).toEqual([]);

    // Once only.
    clock.advance(60);
    expect(deliverDue(t.server.ctx).reminders).toEqual({ delivered: 0, failed: 0 });
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('writes the reminder again from the message as it is at delivery', async () => {
    const messageId = await sendDirect(t, 'owner', [idOf('member')], 'first draft');
    await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: nowSeconds() + 10,
      note: 'keep this',
    });
    const edited = await t.as('owner').patch(`/messages/${messageId}`, { content: 'final text' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await watchers.clear();
    clock.advance(10);
    expect(deliverDue(t.server.ctx).reminders).toEqual({ delivered: 1, failed: 0 });
    const [event] = reminderMessages(await watchers.take())['member:messages']!;
    expect(await rawContent(member(), event.message.id)).toBe(
      'You requested a reminder for the following direct message. Note:\n > keep this\n\n' +
        `${mention(idOf('owner'))} [said](${dmUrl([idOf('owner'), idOf('member')], messageId)}) to ${mention(idOf('member'))}:\n` +
        '```quote\nfinal text\n```',
    );
  });

  it('sends the saved text when the message is gone', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'short-lived');
    const id = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: nowSeconds() + 10,
    });
    const stored = await contentOf(member(), id);
    const deleted = await t.as('owner').delete(`/messages/${messageId}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    await watchers.clear();
    clock.advance(10);
    expect(deliverDue(t.server.ctx).reminders).toEqual({ delivered: 1, failed: 0 });
    const [event] = reminderMessages(await watchers.take())['member:messages']!;
    expect(await rawContent(member(), event.message.id)).toBe(stored);
  });

  it('fails the reminder of a deactivated owner silently and does not retry it', async () => {
    const leaver: Account = await t.createMember('Soon Gone');
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'for the leaver');
    const id = await remindOk(t.as(leaver), {
      message_id: messageId,
      scheduled_delivery_timestamp: nowSeconds() + 10,
    });
    const deactivated = await t.as('admin').delete(`/users/${leaver.id}`);
    expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
    await watchers.clear();
    clock.advance(10);
    expect(deliverDue(t.server.ctx).reminders).toEqual({ delivered: 0, failed: 1 });
    expect(receivers(await watchers.take())).toEqual([]);
    const row = t.server.ctx.db
      .prepare('SELECT delivered, failed, failure_message FROM scheduled_messages WHERE id = ?')
      .get(id);
    expect(row).toEqual({ delivered: 0, failed: 1, failure_message: 'Account is deactivated' });
    clock.advance(60);
    expect(deliverDue(t.server.ctx).reminders).toEqual({ delivered: 0, failed: 0 });
  });

  it('is part of the same pass as scheduled messages, which alone leave reminders be', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'together');
    const reminder = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: nowSeconds() + 5,
    });
    const scheduled = await member().post('/scheduled_messages', {
      type: 'direct',
      to: [idOf('owner')],
      content: 'scheduled hello',
      scheduled_delivery_timestamp: nowSeconds() + 5,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    clock.advance(5);
    expect(deliverDueScheduledMessages(t.server.ctx)).toEqual({ delivered: 1, failed: 0 });
    expect((await listOf(member())).map((r) => r.reminder_id)).toEqual([reminder]);
    await watchers.clear();
    expect(deliverDue(t.server.ctx)).toEqual({
      scheduledMessages: { delivered: 0, failed: 0 },
      reminders: { delivered: 1, failed: 0 },
    });
    const events = await watchers.take();
    expect(receivers(only(events, 'message'))).toEqual(['member:messages']);
    expect(receivers(only(events, 'scheduled_messages'))).toEqual([]);
    expect(await listOf(member())).toEqual([]);
  });

  it('a delivered reminder can still be deleted, as Zulip’s access_reminder allows', async () => {
    const messageId = await sendToChannel(t, 'owner', general, 'plans', 'done already');
    const id = await remindOk(member(), {
      message_id: messageId,
      scheduled_delivery_timestamp: nowSeconds() + 5,
    });
    clock.advance(5);
    expect(deliverDue(t.server.ctx).reminders).toEqual({ delivered: 1, failed: 0 });
    await watchers.clear();
    const res = await member().delete(`/reminders/${id}`);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(only(await watchers.take(), 'reminders').member).toEqual([
      { id: expect.any(Number), type: 'reminders', op: 'remove', reminder_id: id },
    ]);
    expectError(await t.as('owner').delete(`/reminders/${id}`), 'Reminder does not exist', 404);
  });
});
