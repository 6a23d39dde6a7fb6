/**
 * Guessing ids: every caller tries to read or change the owner's private
 * objects by id (a message in a private channel, a direct message to the
 * moderator, a draft, a scheduled message, a saved snippet, a reminder, an
 * attachment, the private channel itself). Each attempt is refused or reveals
 * nothing: the private text never appears in the answer and no table changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type CallerName, type Callers, setUpCallers } from './callers.js';
import { ChangeWatch } from './db-digest.js';

let t: TestServer;
let callers: Callers;
let watch: ChangeWatch;

const SECRET = 'zqprivatetextmarker';
const ids = {
  channel: 0,
  channelMessage: 0,
  direct: 0,
  draft: 0,
  scheduled: 0,
  snippet: 0,
  reminder: 0,
  attachment: 0,
};

async function api(who: CallerName, method: string, path: string, params: object = {}) {
  const url = new URL(`${t.url}/api/v1${path}`);
  const headers: Record<string, string> = { authorization: callers.authorization(who)! };
  const entries = Object.entries(params).map(
    ([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string],
  );
  let body: string | undefined;
  if (method === 'GET') for (const [k, v] of entries) url.searchParams.set(k, v);
  else {
    body = new URLSearchParams(entries).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

async function ok(who: CallerName, method: string, path: string, params: object = {}) {
  const res = await api(who, method, path, params);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
  return res.body;
}

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false, outgoingWebhookTimeoutMs: 200 });
  callers = setUpCallers(t);
  watch = new ChangeWatch(t.server.ctx.db);
  const later = Math.floor(Date.now() / 1000) + 3600;
  const sub = await ok('owner', 'POST', '/users/me/subscriptions', {
    subscriptions: [{ name: 'owner only' }],
    invite_only: true,
    history_public_to_subscribers: false,
  });
  expect(sub.subscribed).toBeTruthy();
  ids.channel = (await ok('owner', 'GET', '/get_stream_id', { stream: 'owner only' }))
    .stream_id as number;
  ids.channelMessage = (
    await ok('owner', 'POST', '/messages', {
      type: 'stream',
      to: ids.channel,
      topic: `topic ${SECRET}`,
      content: SECRET,
    })
  ).id as number;
  ids.direct = (
    await ok('owner', 'POST', '/messages', {
      type: 'direct',
      to: [callers.ids.moderator],
      content: SECRET,
    })
  ).id as number;
  ids.draft = (
    (
      await ok('owner', 'POST', '/drafts', {
        drafts: [{ type: 'private', to: [], topic: '', content: SECRET, timestamp: 1 }],
      })
    ).ids as number[]
  )[0]!;
  ids.scheduled = (
    await ok('owner', 'POST', '/scheduled_messages', {
      type: 'direct',
      to: [callers.ids.moderator],
      content: SECRET,
      scheduled_delivery_timestamp: later,
    })
  ).scheduled_message_id as number;
  ids.snippet = (await ok('owner', 'POST', '/saved_snippets', { title: SECRET, content: SECRET }))
    .saved_snippet_id as number;
  ids.reminder = (
    await ok('owner', 'POST', '/reminders', {
      message_id: ids.direct,
      scheduled_delivery_timestamp: later,
      note: SECRET,
    })
  ).reminder_id as number;
  const form = new FormData();
  form.append('file', new File(['bytes'], `${SECRET}.txt`, { type: 'text/plain' }));
  const upload = await fetch(`${t.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: { authorization: callers.authorization('owner')! },
    body: form,
  });
  expect(upload.status).toBe(200);
  const attachments = await ok('owner', 'GET', '/attachments');
  ids.attachment = (attachments.attachments as { id: number }[])[0]!.id;
});
afterAll(() => t.close());

type Attempt = [label: string, method: string, path: () => string, params?: () => object];
const later = () => Math.floor(Date.now() / 1000) + 7200;

/** Attempts that must be refused (4xx). */
const refused: Attempt[] = [
  ['read the channel message', 'GET', () => `/messages/${ids.channelMessage}`],
  ['read its edit history', 'GET', () => `/messages/${ids.channelMessage}/history`],
  ['read its receipts', 'GET', () => `/messages/${ids.channelMessage}/read_receipts`],
  ['edit it', 'PATCH', () => `/messages/${ids.channelMessage}`, () => ({ content: 'mine' })],
  ['delete it', 'DELETE', () => `/messages/${ids.channelMessage}`],
  [
    'react to it',
    'POST',
    () => `/messages/${ids.channelMessage}/reactions`,
    () => ({ emoji_name: 'smile' }),
  ],
  [
    'report it',
    'POST',
    () => `/messages/${ids.channelMessage}/report`,
    () => ({ report_type: 'spam' }),
  ],
  [
    'set a reminder on it',
    'POST',
    () => '/reminders',
    () => ({ message_id: ids.channelMessage, scheduled_delivery_timestamp: later() }),
  ],
  [
    'add a submessage',
    'POST',
    () => '/submessage',
    () => ({ message_id: ids.channelMessage, msg_type: 'widget', content: '{"type":"vote"}' }),
  ],
  ['read the direct message', 'GET', () => `/messages/${ids.direct}`],
  [
    'edit the direct message',
    'PATCH',
    () => `/messages/${ids.direct}`,
    () => ({ content: 'mine' }),
  ],
  ['delete the direct message', 'DELETE', () => `/messages/${ids.direct}`],
  [
    'react to the direct message',
    'POST',
    () => `/messages/${ids.direct}/reactions`,
    () => ({ emoji_name: 'smile' }),
  ],
  [
    'edit the draft',
    'PATCH',
    () => `/drafts/${ids.draft}`,
    () => ({ draft: { type: 'private', to: [], topic: '', content: 'x', timestamp: 2 } }),
  ],
  ['delete the draft', 'DELETE', () => `/drafts/${ids.draft}`],
  [
    'edit the scheduled message',
    'PATCH',
    () => `/scheduled_messages/${ids.scheduled}`,
    () => ({ content: 'x' }),
  ],
  ['delete the scheduled message', 'DELETE', () => `/scheduled_messages/${ids.scheduled}`],
  [
    'edit the saved snippet',
    'PATCH',
    () => `/saved_snippets/${ids.snippet}`,
    () => ({ title: 'x' }),
  ],
  ['delete the saved snippet', 'DELETE', () => `/saved_snippets/${ids.snippet}`],
  ['delete the reminder', 'DELETE', () => `/reminders/${ids.reminder}`],
  ['delete the attachment', 'DELETE', () => `/attachments/${ids.attachment}`],
  ['list the channel topics', 'GET', () => `/users/me/${ids.channel}/topics`],
];

/** Attempts that may succeed but must reveal nothing and change nothing. */
const harmless: Attempt[] = [
  [
    'fetch the messages by id',
    'GET',
    () => '/messages',
    () => ({ message_ids: [ids.channelMessage, ids.direct] }),
  ],
  [
    'search everything',
    'GET',
    () => '/messages',
    () => ({
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: 'search', operand: SECRET }],
    }),
  ],
  [
    'match them against a narrow',
    'POST',
    () => '/messages/matches_narrow',
    () => ({ msg_ids: [ids.channelMessage, ids.direct], narrow: [] }),
  ],
  [
    'star them',
    'POST',
    () => '/messages/flags',
    () => ({ messages: [ids.channelMessage, ids.direct], op: 'add', flag: 'starred' }),
  ],
  ['list drafts', 'GET', () => '/drafts'],
  ['list scheduled messages', 'GET', () => '/scheduled_messages'],
  ['list saved snippets', 'GET', () => '/saved_snippets'],
  ['list reminders', 'GET', () => '/reminders'],
  ['list attachments', 'GET', () => '/attachments'],
];

/** Not entitled to anything of the owner's (the moderator receives the direct message). */
const strangers = [
  'admin',
  'member',
  'guest',
  'generic_bot',
  'outgoing_bot',
  'embedded_bot',
] as const;

describe("the owner's private objects, by id", () => {
  it.each(strangers)('%s is refused every change and every private read', async (who) => {
    const problems: string[] = [];
    for (const [label, method, path, params] of refused) {
      watch.before();
      const res = await api(who, method, path(), params?.() ?? {});
      if (res.status < 400 || res.status >= 500)
        problems.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
      if (res.text.includes(SECRET)) problems.push(`${label}: revealed the text`);
      if (watch.changed()) problems.push(`${label}: changed stored data`);
    }
    for (const [label, method, path, params] of harmless) {
      watch.before();
      const res = await api(who, method, path(), params?.() ?? {});
      if (res.status >= 500) problems.push(`${label}: ${res.status}`);
      if (res.text.includes(SECRET)) problems.push(`${label}: revealed the text`);
      if (watch.changed()) problems.push(`${label}: changed stored data`);
    }
    expect(problems).toEqual([]);
  });

  it('the owner sees every one of them (the checks can fail)', async () => {
    for (const [label, method, path, params] of harmless.filter(([, m]) => m === 'GET')) {
      const res = await api('owner', method, path(), params?.() ?? {});
      expect(res.text.includes(SECRET), label).toBe(true);
    }
  });
});
