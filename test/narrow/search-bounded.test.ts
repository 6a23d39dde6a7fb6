import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesUpTo, narrowQuery, windowSql } from '../../server/db/queries/message-search.js';
import { insertMessage } from '../../server/db/queries/messages.js';
import { insertReaction } from '../../server/db/queries/reactions.js';
import { userById } from '../../server/db/queries/users.js';
import { resolveNarrow } from '../../server/narrow/resolve.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { countStretches } from './stretch-counter.js';

/*
 * Search windows read through stretches of ids when the narrow has a term
 * with its own index, and a prefix is spelled out as whole indexed words:
 * both must give exactly the answer of walking every match. Messages are
 * written straight into the database (hundreds are needed to cross
 * stretches), as the bench does.
 */

let t: TestServer;
let busy: number;
let quiet: number;
let secret: number;
/** Reacted messages, and the reactions on each. */
const reacted = new Map<number, number>();
/** Every message written here, oldest first. */
const written: Array<{ id: number; stream: number; words: string[]; link: boolean }> = [];

function write(stream: number, words: string[], link = false): number {
  const { ctx } = t.server;
  const content = words.join(' ');
  const id = insertMessage(ctx.db, {
    sender_id: t.accounts.owner.id,
    stream_id: stream,
    dm_group_id: null,
    topic: 'bulk',
    content,
    rendered_content: `<p>${content}</p>`,
    date_sent: 1_700_000_000 + written.length,
    sending_client: 'test',
    has_link: link,
  });
  written.push({ id, stream, words, link });
  return id;
}

async function ids(
  params: Record<string, unknown>,
): Promise<{ ids: number[]; body: Record<string, unknown> }> {
  const res = await t.as('member').get('/messages', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ids: res.body.messages.map((m: { id: number }) => m.id), body: res.body };
}

/** The ids a plain walk over `written` gives, ascending. */
const expected = (keep: (m: (typeof written)[number]) => boolean) =>
  written.filter(keep).map((m) => m.id);

beforeAll(async () => {
  t = await startTestServer();
  const a = t.accounts;
  busy = createChannel(t, { name: 'busy', subscribers: [a.owner.id, a.member.id] });
  quiet = createChannel(t, { name: 'quiet', subscribers: [a.owner.id, a.member.id] });
  const { ctx } = t.server;
  ctx.transaction(() => {
    // 1,500 messages with "common" in all of them: the first stretch holds
    // 256 matches, so a window of 100 in `quiet` (one message in 10) needs
    // several stretches, and `linked` (one in 300) needs all of them.
    for (let i = 0; i < 1500; i++) {
      const stream = i % 10 === 3 ? quiet : busy;
      const words = ['common', i % 2 === 0 ? 'even' : 'odd'];
      if (stream === busy && i % 5 === 0) words.push('busyonly');
      write(stream, words, i % 300 === 7);
    }
    write(busy, ['deploy', 'now']);
    write(busy, ['deployment', 'done']);
    write(busy, ['redeploy', 'later']);
    write(quiet, ['ready', 'to', 'deployed']);
    write(quiet, ['ready', 'to', 'go', 'deploying']);
    for (let i = 0; i < 40; i++) write(busy, [`zeta${i}`]);
    // A word only in the newest 300 messages, all in one channel.
    for (let i = 0; i < 300; i++) write(busy, ['recent']);
    secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
    const hidden = write(secret, ['hidden']);
    // Reactions on a few messages, several on some; one the member cannot read.
    const react = (messageId: number, userId: number, emojiCode: string) => {
      insertReaction(ctx.db, { messageId, userId, reactionType: 'unicode_emoji', emojiCode }, 'x');
      reacted.set(messageId, (reacted.get(messageId) ?? 0) + 1);
    };
    for (const [index, count] of [
      [5, 1],
      [13, 3],
      [700, 2],
      [1499, 1],
      [1510, 2],
    ] as const) {
      for (let k = 0; k < count; k++)
        react(written[index]!.id, [a.owner.id, a.member.id, a.admin.id][k]!, '1f44d');
    }
    react(hidden, a.owner.id, '1f600');
  });
});

afterAll(async () => {
  await t.close();
});

describe('search with a channel term (stretches of ids)', () => {
  it('returns the newest and oldest matches exactly as a walk of every match would', async () => {
    const inQuiet = expected((m) => m.stream === quiet && m.words.includes('common'));
    expect(inQuiet.length).toBeGreaterThan(140);
    const narrow = [
      ['channel', 'quiet'],
      ['search', 'common'],
    ];
    const newest = await ids({ anchor: 'newest', num_before: 100, num_after: 0, narrow });
    expect(newest.ids).toEqual(inQuiet.slice(-100));
    expect(newest.body.found_oldest).toBe(false);
    const oldest = await ids({ anchor: 'oldest', num_before: 0, num_after: 100, narrow });
    expect(oldest.ids).toEqual(inQuiet.slice(0, 100));
    expect(oldest.body.found_newest).toBe(false);
    // Around an anchor that is not itself a match, both directions at once.
    const middle = written[700]!.id;
    const around = await ids({ anchor: middle, num_before: 60, num_after: 60, narrow });
    const before = inQuiet.filter((id) => id < middle).slice(-60);
    const after = inQuiet.filter((id) => id > middle).slice(0, 60);
    expect(around.ids).toEqual([...before, ...after]);
  });

  it('combines the channel with other terms and more words', async () => {
    const narrow = [
      ['channel', 'busy'],
      ['search', 'even busyonly'],
    ];
    const want = expected(
      (m) => m.stream === busy && m.words.includes('even') && m.words.includes('busyonly'),
    );
    expect((await ids({ anchor: 'newest', num_before: 1000, narrow })).ids).toEqual(want);
    const linked = expected((m) => m.stream === busy && m.link && m.words.includes('common'));
    expect(linked.length).toBeGreaterThan(0);
    const withLink = await ids({
      anchor: 'newest',
      num_before: 1000,
      narrow: [
        ['has', 'link'],
        ['search', 'common'],
      ],
    });
    expect(withLink.ids).toEqual(expected((m) => m.link && m.words.includes('common')));
  });

  it('answers empty, within a few stretches, when the other terms filter out every match', async () => {
    const { ctx } = t.server;
    const member = userById(ctx.db, t.accounts.member.id)!;
    const terms = [
      { operator: 'channel', operand: 'quiet', negated: false },
      { operator: 'search', operand: 'recent', negated: false },
    ];
    const resolved = resolveNarrow(ctx, member, terms, {
      allowHistory: true,
      needUnreadBound: false,
    });
    const q = narrowQuery(resolved.visibility, resolved.conditions);
    expect(q.search?.driver).toBeDefined();
    const { result, stretches } = countStretches(ctx.db, q, () =>
      messagesUpTo(ctx.db, q, Number.MAX_SAFE_INTEGER, 100),
    );
    expect(result).toEqual([]);
    // The newest 256 ids hold the first 256 matches; stretches four times
    // longer each (1,024 then 4,096 ids) cover the other ~1,600 ids.
    expect(stretches).toBe(3);

    const res = await ids({
      anchor: 'newest',
      num_before: 100,
      narrow: [
        ['channel', 'quiet'],
        ['search', 'busyonly'],
      ],
    });
    expect(res.ids).toEqual([]);
    expect(res.body.found_oldest).toBe(true);
    const up = await ids({
      anchor: 'oldest',
      num_after: 100,
      narrow: [
        ['channel', 'quiet'],
        ['search', 'busyonly'],
      ],
    });
    expect(up.ids).toEqual([]);
    expect(up.body.found_newest).toBe(true);
  });
});

describe('has:reaction', () => {
  it('walks the reacted messages, each once, from either end', async () => {
    const visible = [...reacted.keys()].filter(
      (id) => written.find((m) => m.id === id)!.stream !== secret,
    );
    visible.sort((x, y) => x - y);
    expect(visible).toHaveLength(5);
    const narrow = [['has', 'reaction']];
    expect((await ids({ anchor: 'newest', num_before: 100, narrow })).ids).toEqual(visible);
    expect((await ids({ anchor: 'newest', num_before: 2, narrow })).ids).toEqual(visible.slice(-2));
    const up = await ids({ anchor: 'oldest', num_after: 3, narrow });
    expect(up.ids).toEqual(visible.slice(0, 3));
    expect(up.body.found_newest).toBe(false);
    const around = await ids({ anchor: visible[2], num_before: 1, num_after: 1, narrow });
    expect(around.ids).toEqual(visible.slice(1, 4));
    expect(
      (await ids({ anchor: 'newest', num_before: 100, narrow: [...narrow, ['channel', 'quiet']] }))
        .ids,
    ).toEqual(visible.filter((id) => written.find((m) => m.id === id)!.stream === quiet));
  });

  it('reads the reactions in message order, without sorting', () => {
    const q = narrowQuery(
      { userId: 1, contentStreamIds: [1], historyStreamIds: [1], unreadFrom: 0 },
      [{ kind: 'hasReaction', negated: false }],
    );
    for (const sql of [windowSql.upTo(q), windowSql.from(q)]) {
      const plan = (
        t.server.ctx.db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all({ ...q.params, bound: 1, limit: 1 }) as Array<{
          detail: string;
        }>
      )
        .map((r) => r.detail)
        .join('\n');
      expect(plan.split('\n')[0]).toMatch(
        /SEARCH r USING (COVERING INDEX|PRIMARY KEY) .*message_id[<>]\?/,
      );
      expect(plan).not.toContain('TEMP B-TREE');
    }
  });
});

describe('prefix of the last word', () => {
  it('matches every word starting with it, and only those', async () => {
    const deploys = expected((m) => m.words.some((w) => w.startsWith('depl')));
    expect(deploys).toHaveLength(4);
    for (const operand of ['depl', 'deploy', 'DEPLO', 'de']) {
      expect(
        (await ids({ anchor: 'newest', num_before: 100, narrow: [['search', operand]] })).ids,
      ).toEqual(deploys);
    }
    // A whole word before it, and a phrase ending in a prefix.
    expect(
      (await ids({ anchor: 'newest', num_before: 100, narrow: [['search', 'ready deploy']] })).ids,
    ).toEqual(
      expected((m) => m.words.includes('ready') && m.words.some((w) => w.startsWith('deploy'))),
    );
    expect(
      (await ids({ anchor: 'newest', num_before: 100, narrow: [['search', 'ready-to-dep']] })).ids,
    ).toEqual(expected((m) => m.words.join(' ').startsWith('ready to dep')));
    // A word typed whole and followed by a space is not a prefix.
    expect(
      (await ids({ anchor: 'newest', num_before: 100, narrow: [['search', 'deploy ']] })).ids,
    ).toEqual(expected((m) => m.words.includes('deploy')));
  });

  it('still matches every completion when there are too many to spell out', async () => {
    const zetas = expected((m) => m.words.some((w) => w.startsWith('zeta')));
    expect(zetas).toHaveLength(40);
    expect(
      (await ids({ anchor: 'newest', num_before: 100, narrow: [['search', 'zeta']] })).ids,
    ).toEqual(zetas);
    expect(
      (await ids({ anchor: 'newest', num_before: 100, narrow: [['search', 'zeta1']] })).ids,
    ).toEqual(expected((m) => m.words.some((w) => w.startsWith('zeta1'))));
  });
});
