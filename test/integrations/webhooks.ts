/** Delivering tools' payloads to the real server's integration URLs, and reading what was posted. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { userById } from '../../server/db/queries/users.js';
import { BotType } from '../../server/shared/roles.js';
import { createBot } from '../../server/users/bots.js';
import { createChannel } from '../helpers/fixtures.js';
import type { Account, TestServer } from '../helpers/server.js';

export type { Account };

const FIXTURES = path.join(import.meta.dirname, '../fixtures/integrations');

/** A payload written for these tests from the tool's documented schema: test/fixtures/integrations/<tool>/<name>.json. */
export function payload(tool: string, name: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES, tool, `${name}.json`), 'utf8'));
}

/** An incoming-webhook bot owned by the member, and a channel the tools post to. */
export function webhookSetup(t: TestServer, channelName = 'devel') {
  const { ctx } = t.server;
  const owner = userById(ctx.db, t.accounts.member.id)!;
  const created = createBot(ctx, owner, {
    fullName: `Hook ${channelName}`,
    shortName: `hook-${channelName}`,
    botType: BotType.incomingWebhook,
  });
  const row = userById(ctx.db, created.user_id)!;
  const bot: Account = {
    id: row.id,
    email: row.delivery_email,
    apiKey: row.api_key,
    password: null,
  };
  const channelId = createChannel(t, {
    name: channelName,
    subscribers: [t.accounts.owner.id, t.accounts.member.id],
  });
  return { bot, channelId };
}

export interface Delivery {
  /** The API key for `?api_key=` (omitted when undefined). */
  key?: string;
  /** More query parameters: stream, topic, only_events, ... (lists as JSON). */
  query?: Record<string, string | string[] | boolean>;
  headers?: Record<string, string>;
  /** An object (sent as JSON), or the body as is. */
  body?: unknown;
  contentType?: string;
}

export interface DeliveryAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests index into the JSON answer
  body: any;
}

/** POST /api/v1/external/{integration} as a tool does. */
export async function deliver(
  t: TestServer,
  integration: string,
  delivery: Delivery,
): Promise<DeliveryAnswer> {
  const url = new URL(`${t.url}/api/v1/external/${integration}`);
  if (delivery.key !== undefined) url.searchParams.set('api_key', delivery.key);
  for (const [name, value] of Object.entries(delivery.query ?? {})) {
    url.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const raw = delivery.body;
  const body =
    raw === undefined
      ? undefined
      : typeof raw === 'string'
        ? raw
        : Buffer.isBuffer(raw)
          ? new Uint8Array(raw)
          : JSON.stringify(raw);
  const headers: Record<string, string> = {
    'content-type': delivery.contentType ?? 'application/json',
    ...delivery.headers,
  };
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`answered non-JSON (${response.status}): ${text.slice(0, 200)}`);
  }
  return { status: response.status, body: json };
}

export interface Posted {
  id: number;
  topic: string;
  content: string;
  channel: string | null;
  client: string;
  sender: number;
  recipients: number[];
}

/** The newest message id the bot owner (the member) can see, to read what comes after. */
export async function watermark(t: TestServer): Promise<number> {
  const answer = await t.as('member').get('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
  });
  const messages = answer.body.messages as { id: number }[];
  return messages.at(-1)?.id ?? 0;
}

/** Messages posted after `since` (a message id), oldest first, as the member (the bot owner) sees them. */
export async function postedSince(t: TestServer, since: number): Promise<Posted[]> {
  const answer = await t.as('member').get('/messages', {
    anchor: since,
    include_anchor: false,
    num_before: 0,
    num_after: 50,
    apply_markdown: false,
  });
  if (answer.body.result !== 'success') throw new Error(JSON.stringify(answer.body));
  return (answer.body.messages as Record<string, unknown>[]).map((m) => ({
    id: m.id as number,
    topic: m.subject as string,
    content: m.content as string,
    channel: m.type === 'stream' ? (m.display_recipient as string) : null,
    client: m.client as string,
    sender: m.sender_id as number,
    recipients:
      m.type === 'stream' ? [] : (m.display_recipient as { id: number }[]).map((r) => r.id),
  }));
}
