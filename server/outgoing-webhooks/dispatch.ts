import type { AppContext } from '../core/context.js';
import { activeOutgoingWebhookBotIds, botServices } from '../db/queries/bots.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { tableMemo } from '../db/table-memo.js';
import type { NewMessageFacts, PendingEvent } from '../events/hub.js';
import { directMessageUrl, topicUrl } from '../markdown/index.js';
import { getMessage, sendMessage } from '../messages/index.js';
import { BotType } from '../shared/roles.js';

/** Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS. */
export const DEFAULT_OUTGOING_WEBHOOK_TIMEOUT_MS = 10_000;

/** The client name a bot's answer is sent with. */
const RESPONSE_CLIENT = 'OutgoingWebhookResponse';

type Trigger = 'mention' | 'direct_message';

interface Delivery {
  bot: UserRow;
  trigger: Trigger;
  url: string;
  token: string;
  facts: NewMessageFacts;
}

/**
 * Watches committed `message` events and calls the outgoing-webhook bots they
 * concern. The hub calls observers synchronously after the commit; the HTTP
 * work is started on a later tick so it never runs inside a transaction or
 * holds up the sender's response. `stop()` unsubscribes, aborts the
 * requests under way and waits for them (before the database closes).
 */
export function startOutgoingWebhooks(
  ctx: AppContext,
  options: { timeoutMs?: number } = {},
): { stop(): Promise<void> } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_OUTGOING_WEBHOOK_TIMEOUT_MS;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  const unsubscribe = ctx.events.observe((event: PendingEvent) => {
    const facts = event.newMessage;
    if (event.type !== 'message' || !facts) return;
    let deliveries: Delivery[];
    try {
      deliveries = deliveriesFor(ctx, facts);
    } catch (err) {
      ctx.log.error('outgoing webhooks: finding bots failed', err);
      return;
    }
    for (const delivery of deliveries) {
      const job = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() =>
          stopping.signal.aborted ? undefined : deliver(ctx, delivery, timeoutMs, stopping.signal),
        )
        .catch((err: unknown) => ctx.log.error('outgoing webhook delivery failed', err))
        .finally(() => running.delete(job));
      running.add(job);
    }
  });
  return {
    async stop() {
      unsubscribe();
      stopping.abort();
      await Promise.all([...running]);
    },
  };
}

/**
 * Every message event comes here; most teams have no outgoing-webhook bot,
 * and most messages name none, so that is settled without reading a user.
 */
const outgoingWebhookBots = tableMemo(
  ['users'],
  ({ db }: AppContext) => new Set(activeOutgoingWebhookBotIds(db, BotType.outgoingWebhook)),
);

/**
 * Zulip's get_service_bot_events: nothing for a bot's message (no loops);
 * in a channel the bots mentioned by name, in a direct message the bots
 * among the recipients.
 */
function deliveriesFor(ctx: AppContext, facts: NewMessageFacts): Delivery[] {
  const bots = outgoingWebhookBots(ctx);
  const candidates = (facts.isChannel ? facts.mentioned : facts.recipients).filter((id) =>
    bots.has(id),
  );
  if (candidates.length === 0) return [];
  const sender = userById(ctx.db, facts.senderId);
  if (!sender || sender.is_bot) return [];
  const trigger: Trigger = facts.isChannel ? 'mention' : 'direct_message';
  const deliveries: Delivery[] = [];
  for (const userId of new Set(candidates)) {
    if (userId === sender.id) continue;
    const bot = userById(ctx.db, userId);
    if (!bot) continue;
    for (const service of botServices(ctx.db, bot.id)) {
      deliveries.push({ bot, trigger, url: service.base_url, token: service.token, facts });
    }
  }
  return deliveries;
}

/**
 * The message dict as Zulip's GenericOutgoingWebhookService sends it (raw
 * `content` and `rendered_content`, no per-user flags). Formatted for the
 * sender, who can always see it: a bot mentioned in a channel it is not
 * subscribed to is told all the same, as in Zulip.
 */
function messageDict(ctx: AppContext, senderId: number, messageId: number) {
  const sender = userById(ctx.db, senderId);
  if (!sender) throw new Error('sender gone');
  const options = { allowEmptyTopicName: true };
  const raw = getMessage(ctx, sender, messageId, { ...options, applyMarkdown: false });
  const html = getMessage(ctx, sender, messageId, { ...options, applyMarkdown: true });
  const { flags: _flags, ...dict } = raw.message as Record<string, unknown>;
  return { ...dict, rendered_content: html.message.content } as Record<string, unknown>;
}

async function deliver(
  ctx: AppContext,
  d: Delivery,
  timeoutMs: number,
  stopping: AbortSignal,
): Promise<void> {
  // The bot (or the message) may be gone by now.
  const bot = userById(ctx.db, d.bot.id);
  if (!bot?.is_active) return;
  let message: Record<string, unknown>;
  try {
    message = messageDict(ctx, d.facts.senderId, d.facts.messageId);
  } catch {
    return;
  }
  const body = {
    data: message.content,
    trigger: d.trigger,
    token: d.token,
    message,
    bot_email: bot.delivery_email,
    bot_full_name: bot.full_name,
  };
  let response: Response;
  try {
    response = await fetch(d.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping]),
      redirect: 'manual',
    });
  } catch (err) {
    if (stopping.aborted) return;
    const name = (err as { name?: string } | null)?.name;
    const failure =
      name === 'TimeoutError' || name === 'AbortError'
        ? `Request timed out after ${timeoutMs / 1000} seconds.`
        : 'A connection error occurred. Is my bot server down?';
    failWithMessage(ctx, bot, message, failure);
    notifyBotOwner(ctx, bot, message, { failure });
    return;
  }
  const text = await response.text().catch(() => '');
  if (stopping.aborted) return;
  if (response.status < 200 || response.status >= 300) {
    failWithMessage(ctx, bot, message, `Third party responded with ${response.status}`);
    notifyBotOwner(ctx, bot, message, { status: response.status, content: text, bytes: true });
    return;
  }
  let content: string | null;
  try {
    content = replyContent(text);
  } catch (err) {
    const error = (err as Error).message;
    failWithMessage(ctx, bot, message, error);
    notifyBotOwner(ctx, bot, message, {
      content: text,
      failure: `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${error}`,
    });
    return;
  }
  if (content === null) return;
  try {
    reply(ctx, bot, message, content);
  } catch (err) {
    const error = (err as { message?: string }).message ?? String(err);
    failWithMessage(ctx, bot, message, error);
    notifyBotOwner(ctx, bot, message, {
      content: text,
      failure: `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${error}`,
    });
  }
}

/**
 * Zulip's process_success_response with the generic service: the reply's
 * `content`, or null when none is wanted (`response_not_required`, an empty
 * content, the legacy `""` body). Throws Zulip's message on a bad body.
 */
function replyContent(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('Invalid JSON in response');
  }
  if (json === '') return null;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error('Invalid response format');
  }
  const body = json as Record<string, unknown>;
  if (body.response_not_required) return null;
  if (!('content' in body) || body.content === null || body.content === undefined) return null;
  const content = typeof body.content === 'string' ? body.content : JSON.stringify(body.content);
  return content.trim() === '' ? null : content;
}

/** Zulip's send_response_message: as the bot, to the message's topic or DM conversation. */
function reply(
  ctx: AppContext,
  bot: UserRow,
  message: Record<string, unknown>,
  content: string,
): void {
  if (message.type === 'stream') {
    sendMessage(ctx, bot, {
      type: 'stream',
      to: JSON.stringify(message.stream_id),
      topic: String(message.subject ?? ''),
      content,
      clientName: RESPONSE_CLIENT,
    });
    return;
  }
  const people = (message.display_recipient as { id: number }[]).map((r) => r.id);
  sendDirect(ctx, bot, people, content);
}

function sendDirect(ctx: AppContext, bot: UserRow, people: number[], content: string): void {
  sendMessage(ctx, bot, {
    type: 'private',
    to: JSON.stringify(people),
    topic: undefined,
    content,
    clientName: RESPONSE_CLIENT,
  });
}

/** Zulip's fail_with_message: "Failure! ..." where the message was sent. */
function failWithMessage(
  ctx: AppContext,
  bot: UserRow,
  message: Record<string, unknown>,
  failure: string,
): void {
  try {
    reply(ctx, bot, message, `Failure! ${failure}`);
  } catch (err) {
    // E.g. the channel was archived meanwhile: there is no place to say it.
    ctx.log.warn(`outgoing webhook: could not report failure: ${String(err)}`);
  }
}

/**
 * Python's repr of the response, as Zulip quotes it: of its bytes after an
 * error status (`b'...'`), of its text after a bad body (`'...'`).
 */
function pythonRepr(text: string, bytes: boolean): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const units = bytes
    ? [...Buffer.from(text, 'utf8')].map((byte) => String.fromCharCode(byte))
    : [...text];
  let out = '';
  for (const ch of units) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || (bytes && code > 0x7f)) {
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    } else out += ch;
  }
  return `${bytes ? 'b' : ''}${quote}${out}${quote}`;
}

/**
 * Zulip's notify_bot_owner: a direct message from the bot to its owner
 * saying which message triggered the failing webhook, and how it failed.
 */
function notifyBotOwner(
  ctx: AppContext,
  bot: UserRow,
  message: Record<string, unknown>,
  what: { status?: number; content?: string; bytes?: boolean; failure?: string },
): void {
  if (bot.bot_owner_id === null) return;
  const owner = userById(ctx.db, bot.bot_owner_id);
  if (!owner?.is_active) return;
  const id = message.id as number;
  const url =
    message.type === 'stream'
      ? topicUrl(
          ctx,
          { id: message.stream_id as number, name: String(message.display_recipient) },
          String(message.subject ?? ''),
          id,
        )
      : directMessageUrl(
          ctx,
          (message.display_recipient as { id: number }[]).map((r) => r.id),
          id,
        );
  let text = `[A message](${url}) to your bot @_**${bot.full_name}** triggered an outgoing webhook.`;
  if (what.failure) text += `\n${what.failure}`;
  else if (what.status) text += `\nThe webhook got a response with status code *${what.status}*.`;
  if (what.content) {
    text += `\nThe response contains the following payload:\n\`\`\`\n${pythonRepr(what.content, what.bytes ?? false)}\n\`\`\``;
  }
  try {
    sendDirect(ctx, bot, [owner.id], text);
  } catch (err) {
    ctx.log.warn(`outgoing webhook: could not notify the bot owner: ${String(err)}`);
  }
}
