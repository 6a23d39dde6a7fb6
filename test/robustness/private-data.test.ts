/**
 * Private data reaches only those entitled to it. Every caller holds an event
 * queue (all event types) while the owner and the moderator have a burst of
 * private activity: a private channel and a message in it, a direct message
 * and its edit, a draft, a scheduled message, an upload, typing. Then every
 * caller's events, a fresh register, their message history and their own
 * drafts, scheduled messages and attachments are searched for the marker of
 * each private thing: present exactly for the entitled (so the search can
 * fail), absent for everyone else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type CallerName, type Callers, setUpCallers } from './callers.js';

let t: TestServer;
let callers: Callers;

/** Callers that can hold event queues (incoming-webhook bots cannot). */
const watchers = [
  'owner',
  'admin',
  'moderator',
  'member',
  'guest',
  'generic_bot',
  'outgoing_bot',
  'embedded_bot',
] as const satisfies readonly CallerName[];
type Watcher = (typeof watchers)[number];

const marker = (what: string) => `zq${what}marker`;
const secrets = {
  channel: marker('channelname'),
  channelMessage: marker('channelmessage'),
  direct: marker('directmessage'),
  edited: marker('editedmessage'),
  draft: marker('draft'),
  scheduled: marker('scheduled'),
  upload: marker('uploadname'),
};
type Secret = keyof typeof secrets;

/**
 * Who is entitled to see each marker. Administrators may see the metadata
 * of private channels in Zulip, so the channel name is neither required nor
 * forbidden for them.
 */
const entitled: Record<Secret, readonly Watcher[]> = {
  channel: ['owner', 'moderator'],
  channelMessage: ['owner', 'moderator'],
  direct: ['owner', 'moderator'],
  edited: ['owner', 'moderator'],
  draft: ['owner'],
  scheduled: ['owner'],
  upload: ['owner'],
};
const undecided: Partial<Record<Secret, readonly Watcher[]>> = { channel: ['admin'] };

async function api(
  who: CallerName,
  method: string,
  path: string,
  params: Record<string, unknown> = {},
): Promise<{ status: number; text: string; body: Record<string, unknown> }> {
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
  return { status: res.status, text, body: JSON.parse(text) };
}

async function ok(who: CallerName, method: string, path: string, params = {}) {
  const res = await api(who, method, path, params);
  expect(res.status, `${who} ${method} ${path}: ${res.text}`).toBe(200);
  return res.body;
}

let uploadUrl: string;
let privateChannelId: number;
/** The same answers, parsed, for looking up ids. */
const seenValues = {} as Record<Watcher, unknown[]>;

/** Whether any object in `value` names channel `id` (stream_id, or in stream_ids). */
function mentionsChannel(value: unknown, id: number): boolean {
  if (Array.isArray(value)) return value.some((item) => mentionsChannel(item, id));
  if (value === null || typeof value !== 'object') return false;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'stream_id' && inner === id) return true;
    if (key === 'stream_ids' && Array.isArray(inner) && inner.includes(id)) return true;
    if (mentionsChannel(inner, id)) return true;
  }
  return false;
}
/** What each caller was shown, as one text to search. */
const seen = {} as Record<Watcher, string>;

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false, outgoingWebhookTimeoutMs: 200 });
  callers = setUpCallers(t);
  const ids = callers.ids;

  const queues = {} as Record<Watcher, { id: string; last: number }>;
  for (const who of watchers) {
    const reg = await ok(who, 'POST', '/register', { fetch_event_types: [] });
    queues[who] = { id: reg.queue_id as string, last: reg.last_event_id as number };
  }

  // The burst.
  await ok('owner', 'POST', '/users/me/subscriptions', {
    subscriptions: [{ name: secrets.channel, description: 'hush' }],
    principals: [ids.owner, ids.moderator],
    invite_only: true,
  });
  privateChannelId = (await ok('owner', 'GET', '/get_stream_id', { stream: secrets.channel }))
    .stream_id as number;
  // Peer events: a subscriber leaves and comes back.
  await ok('owner', 'DELETE', '/users/me/subscriptions', {
    subscriptions: [secrets.channel],
    principals: [ids.moderator],
  });
  await ok('owner', 'POST', '/users/me/subscriptions', {
    subscriptions: [{ name: secrets.channel }],
    principals: [ids.moderator],
  });
  await ok('owner', 'POST', '/messages', {
    type: 'stream',
    to: secrets.channel,
    topic: 'plans',
    content: secrets.channelMessage,
  });
  await ok('moderator', 'POST', '/typing', { op: 'start', to: [ids.owner] });
  const dm = await ok('owner', 'POST', '/messages', {
    type: 'direct',
    to: [ids.moderator],
    content: secrets.direct,
  });
  await ok('owner', 'PATCH', `/messages/${dm.id}`, {
    content: `${secrets.direct} ${secrets.edited}`,
  });
  await ok('moderator', 'POST', `/messages/${dm.id}/reactions`, { emoji_name: 'smile' });
  await ok('owner', 'POST', '/drafts', {
    drafts: [
      {
        type: 'private',
        to: [ids.moderator],
        topic: '',
        content: secrets.draft,
        timestamp: Math.floor(Date.now() / 1000),
      },
    ],
  });
  await ok('owner', 'POST', '/scheduled_messages', {
    type: 'direct',
    to: [ids.moderator],
    content: secrets.scheduled,
    scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600,
  });
  const form = new FormData();
  form.append('file', new File(['private bytes'], `${secrets.upload}.txt`, { type: 'text/plain' }));
  const upload = await fetch(`${t.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: { authorization: callers.authorization('owner')! },
    body: form,
  });
  expect(upload.status).toBe(200);
  uploadUrl = ((await upload.json()) as { url: string }).url;

  for (const who of watchers) {
    const parts: string[] = [];
    const events = await ok(who, 'GET', '/events', {
      queue_id: queues[who].id,
      last_event_id: queues[who].last,
      dont_block: true,
    });
    parts.push(JSON.stringify(events));
    const state = await api(who, 'POST', '/register', {});
    parts.push(state.text);
    const history = await api(who, 'GET', '/messages', {
      anchor: 'newest',
      num_before: 1000,
      num_after: 0,
      narrow: [],
    });
    parts.push(history.text);
    for (const path of ['/drafts', '/scheduled_messages', '/attachments', '/streams']) {
      parts.push((await api(who, 'GET', path)).text);
    }
    parts.push((await api(who, 'GET', `/messages/${dm.id}`)).text);
    parts.push((await api(who, 'GET', `/messages/${dm.id}/history`)).text);
    seen[who] = parts.join('\n');
    seenValues[who] = parts.map((part) => JSON.parse(part));
  }
}, 60_000);
afterAll(() => t.close());

describe('private data after a burst of private activity', () => {
  it.each(Object.keys(secrets) as Secret[])('%s reaches exactly the entitled', (secret) => {
    const reached = watchers.filter((who) => seen[who].includes(secrets[secret]));
    const ignored = undecided[secret] ?? [];
    expect(reached.filter((who) => !ignored.includes(who))).toEqual(
      watchers.filter((who) => entitled[secret].includes(who)),
    );
  });

  it('the upload, linked from no message, is served to its owner only', async () => {
    const served: string[] = [];
    for (const who of watchers) {
      const res = await fetch(t.url + uploadUrl, {
        headers: { authorization: callers.authorization(who)! },
        redirect: 'manual',
      });
      const text = await res.text();
      if (res.status === 200 && text === 'private bytes') served.push(who);
      else expect(res.status, `${who}: ${res.status}`).toBeGreaterThanOrEqual(400);
    }
    expect(served).toEqual(['owner']);
  });

  it('the private channel id appears only to its subscribers (and administrators)', () => {
    const reached = watchers.filter((who) => mentionsChannel(seenValues[who], privateChannelId));
    expect(reached.filter((who) => who !== 'admin')).toEqual(['owner', 'moderator']);
  });

  it('typing notifications reach only the conversation', () => {
    // The moderator typed to the owner; Zulip counts the sender among the
    // conversation's recipients, so both hear it and nobody else does.
    const typing = watchers.filter((who) =>
      new RegExp(`"type":"typing"[^}]*"sender":\\{[^}]*"user_id":${callers.ids.moderator}`).test(
        seen[who],
      ),
    );
    expect(typing).toEqual(['owner', 'moderator']);
  });
});
