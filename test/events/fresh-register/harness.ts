/**
 * Every event proven by a fresh register (Zulip's test_events.py, as a
 * client sees it): for each observer, register, perform the action, read the
 * queue until it is quiet, apply the events, register again and compare.
 *
 * Two appliers are checked against the same fresh register:
 * - the model of Zulip's apply_event (`register-model.ts`) on the whole
 *   register answer, so every field of every event type is held to what a
 *   new client would be told;
 * - the browser chat's own event code (`renderer/src/chat/data/events.ts`)
 *   on the chat's state built from the first answer, compared with the chat's
 *   state built from the fresh one (the chat's `stateFromRegister`), so the
 *   chat is proven by the same actions.
 *
 * Left out of the comparison (as Zulip's test normalizes what differs between
 * two registers by construction or is re-read from the database):
 * - `queue_id`, `last_event_id`: a new queue each time;
 * - `server_timestamp`: the clock at the answer;
 * - `stream_weekly_traffic`: recomputed from messages, sent in no event;
 * - `unread_msgs.count`: derived with the muting rules; the chat's own
 *   counts (from the same unread messages) are compared instead;
 * - the order of the channel lists, `realm_bots` and `drafts` (keyed by id);
 * - whatever a test names in `ignore` or `ignoreFor` (each with its reason there).
 * The chat's comparison covers the parts of its state register builds
 * (`registerPart`); messages and views come from elsewhere.
 *
 * A test that changes nothing would prove nothing: unless it says
 * `unchanged` (and then it must change nothing), the action has to change
 * at least one observer's register.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { applyEvent, noEffects, type ZulipEvent } from '../../../renderer/src/chat/data/events.js';
import type { ChatState } from '../../../renderer/src/chat/data/model.js';
import { recountUnread } from '../../../renderer/src/chat/data/model-updates.js';
import { REGISTER_PARAMS } from '../../../renderer/src/chat/data/register-params.js';
import { stateFromRegister } from '../../../renderer/src/chat/data/state.js';
import { bookFromRegister, type UnreadBook } from '../../../renderer/src/chat/data/unread.js';
import type { Account, ApiClient, FixtureName, TestServer } from '../../helpers/server.js';
import {
  applyRegisterEvent,
  type Json,
  settleRegisterState,
  toComparable,
} from './register-model.js';

/** How the model's queue registers: the chat's parameters, with subscriber lists to check too. */
const MODEL_PARAMS = { ...REGISTER_PARAMS, include_subscribers: true };

const QUIET_POLLS = 2;
const QUIET_WAIT_MS = 25;

interface Snapshot {
  queueId: string;
  answer: Json;
  lastId: number;
}

async function register(client: ApiClient, params: Record<string, unknown>): Promise<Snapshot> {
  // The schema is checked by the register tests (the reference predates some fields, e.g. reminders').
  const res = await client.post('/register', params, { skipSchema: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { queueId: res.body.queue_id, answer: res.body, lastId: res.body.last_event_id };
}

/** Reads the queue until two reads in a row bring nothing. */
async function drain(client: ApiClient, snapshot: Snapshot): Promise<ZulipEvent[]> {
  const events: ZulipEvent[] = [];
  let empty = 0;
  while (empty < QUIET_POLLS) {
    const res = await client.get(
      '/events',
      {
        queue_id: snapshot.queueId,
        last_event_id: snapshot.lastId,
        dont_block: true,
      },
      { skipSchema: true },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const batch: ZulipEvent[] = res.body.events.filter((e: ZulipEvent) => e.type !== 'heartbeat');
    if (res.body.events.length > 0) snapshot.lastId = res.body.events.at(-1).id;
    if (batch.length === 0) {
      empty++;
      await new Promise((resolve) => setTimeout(resolve, QUIET_WAIT_MS));
    } else {
      empty = 0;
      events.push(...batch);
    }
  }
  return events;
}

function dropAt(state: Json, path: string): void {
  const parts = path.split('.');
  let node = state;
  for (const part of parts.slice(0, -1)) {
    if (node === undefined || node === null) return;
    node = node[part];
  }
  if (node && typeof node === 'object') delete node[parts.at(-1) as string];
}

const KEYED_LISTS: [string, string][] = [
  ['subscriptions', 'stream_id'],
  ['unsubscribed', 'stream_id'],
  ['never_subscribed', 'stream_id'],
  ['streams', 'stream_id'],
  ['realm_bots', 'user_id'],
  // Register lists drafts newest edit first; apply_event appends.
  ['drafts', 'id'],
];

/** The parts of a comparable register answer two registers may differ in by construction. */
export function normalize(state: Json, ignore: readonly string[]): Json {
  for (const key of ['queue_id', 'last_event_id', 'server_timestamp']) delete state[key];
  for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams'])
    for (const channel of state[key] ?? []) delete channel.stream_weekly_traffic;
  // Lists whose order register and apply_event keep differently: keyed by id (as Zulip's test).
  for (const [key, id] of KEYED_LISTS) {
    if (Array.isArray(state[key]))
      state[key] = Object.fromEntries(state[key].map((item: Json) => [item[id], item]));
  }
  for (const path of ignore) dropAt(state, path);
  return state;
}

/** The chat's state and unread book from a register answer, as the store makes them. */
function chatFrom(answer: Json, nowSecs: number): { state: ChatState; book: UnreadBook } {
  const state = stateFromRegister(answer, nowSecs);
  const book = bookFromRegister(answer.unread_msgs, state.ownUserId);
  return { state: recountUnread(state, book), book };
}

/** The parts of the chat's state that come from register (messages and views come from elsewhere). */
function registerPart(chat: { state: ChatState; book: UnreadBook }) {
  const { state, book } = chat;
  return {
    ownUserId: state.ownUserId,
    realm: state.realm,
    users: state.users,
    subscriptions: state.subscriptions,
    channels: stripTraffic(state.channels),
    channelFolders: state.channelFolders,
    userTopics: state.userTopics,
    mutedUserIds: state.mutedUserIds,
    presence: state.presence,
    userStatus: state.userStatus,
    settings: state.settings,
    groups: state.groups,
    starred: new Set(state.starred),
    drafts: state.drafts,
    unread: state.unread,
    unreadPlaces: book.places,
  };
}

function stripTraffic<T extends object>(channels: Map<number, T>): Map<number, T> {
  return new Map(
    [...channels].map(([id, c]) => {
      const { stream_weekly_traffic: _, ...rest } = c as T & { stream_weekly_traffic?: unknown };
      return [id, rest as T];
    }),
  );
}

export interface CheckOptions {
  /** Fresh-register fields left out of this comparison (dotted paths), each for a stated reason. */
  ignore?: readonly string[];
  /** Further fields left out for one observer (by fixture name or e-mail), each for a stated reason. */
  ignoreFor?: Record<string, readonly string[]>;
  /** Fields the chat's comparison leaves out (of `registerPart`). */
  chatIgnore?: readonly string[];
  /** The action is expected to leave the observer's register unchanged (default: it changes it). */
  unchanged?: boolean;
}

type Who = FixtureName | Account;

function nameOf(who: Who): string {
  return typeof who === 'string' ? who : who.email;
}

/**
 * Registers each observer, runs the action, and proves that each observer's
 * events turn the first register into the fresh one, for the model and for
 * the chat. The action's result is returned for the test's own checks.
 */
export async function checkAction<T>(
  t: TestServer,
  observers: readonly Who[],
  action: () => Promise<T>,
  options: CheckOptions = {},
): Promise<T> {
  const queues = [];
  for (const who of observers) {
    const client = t.as(who);
    const model = await register(client, MODEL_PARAMS);
    const chat = await register(client, REGISTER_PARAMS);
    queues.push({ who, client, model, chat });
  }
  const result = await action();
  const changed: string[] = [];
  for (const { who, client, model, chat } of queues) {
    const name = nameOf(who);
    const ignore = [...(options.ignore ?? []), ...(options.ignoreFor?.[name] ?? [])];
    const modelEvents = await drain(client, model);
    const chatEvents = await drain(client, chat);
    const fresh = await register(client, MODEL_PARAMS);
    const freshChat = await register(client, REGISTER_PARAMS);
    for (const s of [model, chat, fresh, freshChat]) {
      await client.delete('/events', { queue_id: s.queueId });
    }

    // The model of Zulip's apply_event on the whole answer.
    const applied = toComparable(model.answer);
    const modelOptions = { ownUserId: model.answer.user_id, includeSubscribers: true };
    for (const event of modelEvents) applyRegisterEvent(applied, event, modelOptions);
    settleRegisterState(applied);
    const expected = normalize(toComparable(fresh.answer), ignore);
    const before = normalize(toComparable(model.answer), ignore);
    const types = modelEvents.map((e) => `${e.type}/${'op' in e ? (e.op ?? '') : ''}`).join(', ');
    if (options.unchanged) {
      expect(expected, `${name}: the action changed register state`).toEqual(before);
    } else if (!isDeepStrictEqual(expected, before)) {
      changed.push(name);
    }
    expect(normalize(applied, ignore), `${name}: events [${types}] applied to register`).toEqual(
      expected,
    );

    // The chat's own event code on its state.
    const nowSecs = Date.now() / 1000;
    const start = chatFrom(chat.answer, nowSecs);
    let state = start.state;
    const ctx = { book: start.book, effects: noEffects(), nowSecs };
    for (const event of chatEvents) state = applyEvent(state, event, ctx);
    const got = registerPart({ state, book: ctx.book }) as Record<string, unknown>;
    const want = registerPart(chatFrom(freshChat.answer, nowSecs)) as Record<string, unknown>;
    for (const key of options.chatIgnore ?? []) {
      delete got[key];
      delete want[key];
    }
    expect(got, `${name}: events [${types}] applied by the chat`).toEqual(want);
  }
  if (!options.unchanged) {
    expect(changed, "the action changed no observer's register (a useless test)").not.toEqual([]);
  }
  return result;
}
