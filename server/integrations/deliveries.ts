/**
 * The last deliveries to each bot's integration URLs, for the admin page.
 *
 * Kept in memory, not in a table: the log is for setting a tool up and
 * seeing why it went quiet, which happens while the server runs; a table
 * would add a write to every delivery for data nobody needs after a
 * restart (the messages themselves are stored). Only what happened is kept,
 * never a payload, which may carry a tool's secrets.
 */
import type { AppContext } from '../core/context.js';

export type DeliveryOutcome = 'accepted' | 'ignored' | 'unsupported' | 'error';

export interface DeliveryRecord {
  /** Milliseconds since the epoch. */
  at: number;
  integration: string;
  /** The event type the integration saw, when it got that far. */
  eventType: string | null;
  outcome: DeliveryOutcome;
  /** Where it was posted, why nothing was, or the error's message. */
  detail: string;
  /** The HTTP status the tool got. */
  status: number;
  messageIds: number[];
}

/** Deliveries kept per bot, newest first. */
export const DELIVERIES_KEPT = 25;

interface DeliveryState {
  byBot: Map<number, DeliveryRecord[]>;
  /** When each bot's owner was last told of each kind of failure. */
  lastNotice: Map<string, number>;
}

const states = new WeakMap<AppContext, DeliveryState>();

function stateOf(ctx: AppContext): DeliveryState {
  let state = states.get(ctx);
  if (!state) {
    state = { byBot: new Map(), lastNotice: new Map() };
    states.set(ctx, state);
  }
  return state;
}

export function recordDelivery(ctx: AppContext, botId: number, record: DeliveryRecord): void {
  const { byBot } = stateOf(ctx);
  const list = byBot.get(botId) ?? [];
  list.unshift(record);
  if (list.length > DELIVERIES_KEPT) list.length = DELIVERIES_KEPT;
  byBot.set(botId, list);
}

/** The bot's last deliveries, newest first. */
export function deliveriesOf(ctx: AppContext, botId: number): DeliveryRecord[] {
  return [...(stateOf(ctx).byBot.get(botId) ?? [])];
}

/** How often a bot's owner hears of the same failure at most. */
const NOTICE_INTERVAL_MS = 10 * 60_000;

/**
 * Whether to tell the bot's owner of this failure now: once per
 * NOTICE_INTERVAL_MS per bot and kind, as Zulip rate-limits its notices,
 * so a tool retrying every minute does not flood them.
 */
export function noticeDue(ctx: AppContext, botId: number, kind: string): boolean {
  const { lastNotice } = stateOf(ctx);
  const key = `${botId}:${kind}`;
  const now = ctx.now();
  const last = lastNotice.get(key);
  if (last !== undefined && now - last < NOTICE_INTERVAL_MS) return false;
  lastNotice.set(key, now);
  return true;
}
