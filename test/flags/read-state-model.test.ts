/**
 * Mixed operations against Zulip's model of flags: one UserMessage row per
 * recipient per message (plus "historical" rows made on demand), compared
 * with what Hearth reports from watermarks and sparse rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSubscription } from '../../server/db/queries/streams.js';
import { unreadCount } from '../../server/db/queries/unread.js';
import { FlagReader } from '../../server/flags/reader.js';
import { Flag, flagNames } from '../../server/shared/flags.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';
import { allUnreadIds, messageState } from './support.js';

const RH = Flag.read | Flag.historical;

interface ModelMessage {
  id: number;
  sender: number;
  channel: number | null; // index into channels
  topic: string;
  dmMembers: number[] | null;
}

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

let t: TestServer;
let users: Account[];
const channels: Array<{ id: number; private: boolean; subscribers: Set<number> }> = [];
const messages: ModelMessage[] = [];
/** Zulip's UserMessage table: user → message → flags. */
const userMessages = new Map<number, Map<number, number>>();

const um = (user: number) => userMessages.get(user)!;
const flagsOf = (user: number, id: number) => um(user).get(id) ?? RH;

function modelUnread(user: number): number[] {
  const ids: number[] = [];
  for (const m of messages) {
    const f = um(user).get(m.id);
    if (f === undefined || f & Flag.read) continue;
    if (m.channel !== null && !channels[m.channel]!.subscribers.has(user)) continue;
    ids.push(m.id);
  }
  return ids;
}

function accessible(user: number, m: ModelMessage): boolean {
  if (um(user).has(m.id)) return true;
  if (m.dmMembers) return m.dmMembers.includes(user);
  return !channels[m.channel!]!.private;
}

beforeAll(async () => {
  t = await startTestServer();
  users = [
    t.accounts.member,
    t.accounts.admin,
    await t.createMember('Rita Random'),
    await t.createMember('Sam Sparse'),
  ];
  for (const u of users) userMessages.set(u.id, new Map());
  const ids = users.map((u) => u.id);
  const plan = [
    { subs: [ids[0]!, ids[1]!, ids[2]!], private: false },
    { subs: [ids[0]!, ids[3]!], private: false },
    { subs: [ids[1]!, ids[2]!, ids[3]!], private: false },
    { subs: [ids[0]!, ids[1]!], private: true },
  ];
  for (const [i, c] of plan.entries()) {
    const id = createChannel(t, { name: `model ${i}`, private: c.private, subscribers: c.subs });
    channels.push({ id, private: c.private, subscribers: new Set(c.subs) });
  }
});
afterAll(() => t.close());

async function checkAgainstModel(step: number) {
  const db = t.server.ctx.db;
  const rows = db.prepare('SELECT user_id, message_id, flags FROM user_message_flags').all() as {
    user_id: number;
    message_id: number;
    flags: number;
  }[];
  const byId = new Map(
    (db.prepare('SELECT * FROM messages').all() as { id: number }[]).map((m) => [m.id, m]),
  );
  for (const user of users) {
    const reader = new FlagReader(db, user.id).load(messages.map((m) => m.id));
    for (const m of messages) {
      // biome-ignore lint/suspicious/noExplicitAny: a message row
      const got = reader.flagsOf(byId.get(m.id) as any);
      expect(got, `step ${step}: user ${user.id}, message ${m.id}`).toBe(flagsOf(user.id, m.id));
    }
    const unread = modelUnread(user.id);
    expect(unreadCount(db, user.id), `step ${step}: count of user ${user.id}`).toBe(unread.length);
    // Rows exist only where they differ from the default.
    const bare = new FlagReader(db, user.id);
    for (const row of rows.filter((r) => r.user_id === user.id)) {
      // biome-ignore lint/suspicious/noExplicitAny: a message row
      const fallback = bare.flagsOf(byId.get(row.message_id) as any);
      expect(row.flags, `step ${step}: redundant row ${JSON.stringify(row)}`).not.toBe(fallback);
    }
  }
}

async function checkRegisterState(step: number) {
  for (const user of users) {
    // GET /messages without a narrow: the messages with a UserMessage row. A
    // historical row back at read|historical is Zulip's only; Hearth drops
    // rows equal to the default (db/DESIGN.md), so that message is history again.
    const res = await t
      .as(user)
      .get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1000, narrow: [] });
    const expected = messages
      .filter((m) => um(user.id).has(m.id) && !(flagsOf(user.id, m.id) === RH))
      .map((m) => ({ id: m.id, flags: flagNames(flagsOf(user.id, m.id)) }));
    expect(
      res.body.messages.map((m: { id: number; flags: string[] }) => ({ id: m.id, flags: m.flags })),
      `step ${step}: GET /messages of ${user.id}`,
    ).toEqual(expected);
    const state = await messageState(t.as(user));
    const unread = modelUnread(user.id);
    expect(allUnreadIds(state.unread_msgs), `step ${step}: unread of ${user.id}`).toEqual(unread);
    expect(state.unread_msgs.count).toBe(unread.length);
    const starred = messages.filter((m) => flagsOf(user.id, m.id) & Flag.starred).map((m) => m.id);
    expect(state.starred_messages, `step ${step}: starred of ${user.id}`).toEqual(starred);
  }
}

describe('flags over mixed operations', () => {
  it('match the per-recipient model of Zulip', async () => {
    const random = rng(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const topics = ['alpha', 'Beta', 'beta', 'gamma'];

    for (let step = 0; step < 260; step++) {
      const r = random();
      const user = pick(users);
      if (r < 0.3 || messages.length < 5) {
        const c = Math.floor(random() * channels.length);
        const channel = channels[c]!;
        const sender = pick(users.filter((u) => channel.subscribers.has(u.id)));
        const readBySender = random() < 0.5;
        const topic = pick(topics);
        const id = await sendToChannel(t, sender, channel.id, topic, `m${step}`, {
          read_by_sender: readBySender,
        });
        messages.push({ id, sender: sender.id, channel: c, topic, dmMembers: null });
        for (const s of channel.subscribers) {
          um(s).set(id, s === sender.id && readBySender ? Flag.read : 0);
        }
      } else if (r < 0.4) {
        const others = users.filter((u) => u !== user && random() < 0.5);
        const id = await sendDirect(
          t,
          user,
          others.length > 0 ? others.map((u) => u.id) : [user.id],
          `d${step}`,
          { read_by_sender: true },
        );
        const members = [user, ...others].map((u) => u.id).sort((a, b) => a - b);
        messages.push({ id, sender: user.id, channel: null, topic: '', dmMembers: members });
        for (const m of members) um(m).set(id, m === user.id ? Flag.read : 0);
      } else if (r < 0.75) {
        const flag = random() < 0.65 ? 'read' : random() < 0.7 ? 'starred' : 'collapsed';
        const op = random() < 0.6 ? 'add' : 'remove';
        const chosen = messages.filter(() => random() < 0.15).map((m) => m.id);
        if (random() < 0.1) chosen.push(999_999);
        const res = await t.as(user).post('/messages/flags', { messages: chosen, op, flag });
        // The model: Zulip's do_update_message_flags.
        const bit = Flag[flag as 'read'];
        const target = op === 'add' ? bit : 0;
        const ignored = new Set<number>();
        let invalid = false;
        const updates: Array<[number, number]> = [];
        for (const id of chosen) {
          const m = messages.find((x) => x.id === id);
          if (flag === 'read' && op === 'remove' && m?.channel != null) {
            if (!channels[m.channel]!.subscribers.has(user.id)) {
              // Unlike Zulip, Hearth does not name the channel of a message the user cannot see.
              if (!accessible(user.id, m)) invalid = true;
              ignored.add(channels[m.channel]!.id);
              continue;
            }
          }
          const current = m ? flagsOf(user.id, id) : RH;
          if ((current & bit) === target) continue;
          if (!m || !accessible(user.id, m)) invalid = true;
          updates.push([id, (current & ~bit) | target]);
        }
        if (invalid) {
          expect(res.body, `step ${step}`).toMatchObject({
            result: 'error',
            msg: 'Invalid message(s)',
          });
          continue;
        }
        expect(res.body, `step ${step}`).toEqual({
          result: 'success',
          msg: '',
          messages: chosen,
          // The spec has the field only when marking unread.
          ...(flag === 'read' && op === 'remove'
            ? { ignored_because_not_subscribed_channels: [...ignored].sort((a, b) => a - b) }
            : {}),
        });
        for (const [id, flags] of updates) um(user.id).set(id, flags);
      } else if (r < 0.85) {
        const c = channels.find((x) => x.subscribers.has(user.id))!;
        const index = channels.indexOf(c);
        if (random() < 0.5) {
          const res = await t.as(user).post('/mark_stream_as_read', { stream_id: c.id });
          expect(res.body.result, `step ${step}`).toBe('success');
          for (const m of messages.filter((x) => x.channel === index)) {
            const f = um(user.id).get(m.id);
            if (f !== undefined) um(user.id).set(m.id, f | Flag.read);
          }
        } else {
          const topic = pick(topics);
          const exists = messages.some(
            (m) =>
              m.channel === index &&
              m.topic.toLowerCase() === topic.toLowerCase() &&
              um(user.id).has(m.id),
          );
          const res = await t
            .as(user)
            .post('/mark_topic_as_read', { stream_id: c.id, topic_name: topic });
          if (!exists) {
            expect(res.body.msg, `step ${step}`).toBe(`No such topic '${topic}'`);
            continue;
          }
          expect(res.body.result, `step ${step}`).toBe('success');
          for (const m of messages) {
            if (m.channel !== index || m.topic.toLowerCase() !== topic.toLowerCase()) continue;
            const f = um(user.id).get(m.id);
            if (f !== undefined) um(user.id).set(m.id, f | Flag.read);
          }
        }
      } else if (r < 0.9) {
        const res = await t.as(user).post('/mark_all_as_read');
        expect(res.body, `step ${step}`).toEqual({ result: 'success', msg: '', complete: true });
        for (const [id, f] of um(user.id)) um(user.id).set(id, f | Flag.read);
      } else if (r < 0.95) {
        // Subscribing: earlier history was not received.
        const c = pick(channels.filter((x) => !x.private && !x.subscribers.has(user.id)).concat());
        if (!c) continue;
        t.server.ctx.transaction(() => insertSubscription(t.server.ctx.db, c.id, user.id, '#fff'));
        c.subscribers.add(user.id);
      } else {
        await checkRegisterState(step);
      }
      if (step % 20 === 19) await checkAgainstModel(step);
    }
    await checkAgainstModel(-1);
    await checkRegisterState(-1);
  });
});
