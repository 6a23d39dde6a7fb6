import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  messagesUpTo,
  narrowQuery,
  nextStretchLength,
} from '../../server/db/queries/message-search.js';
import { insertMessage } from '../../server/db/queries/messages.js';
import { userById } from '../../server/db/queries/users.js';
import { resolveNarrow } from '../../server/narrow/resolve.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { countStretches } from './stretch-counter.js';

/*
 * Stretches are sized from the density of rows: the first from the share of
 * its ids the channel holds, the next ones from the rows found so far
 * (message-search.ts, nextStretchLength). Fewer stretches, the same answer
 * as walking every match.
 */

describe('nextStretchLength', () => {
  it('grows four times while no row was found', () => {
    expect(nextStretchLength(1000, 1000, 0, 100)).toBe(4000);
    expect(nextStretchLength(4000, 5000, 0, 100)).toBe(16_000);
  });

  it('holds twice the rows still wanted at the density seen so far', () => {
    // 10 rows in 1,000 ids, 90 more wanted: 18,000 ids.
    expect(nextStretchLength(1000, 1000, 10, 90)).toBe(18_000);
    // The density counts every id covered, not only the last stretch's.
    expect(nextStretchLength(4000, 5000, 10, 90)).toBe(90_000);
  });

  it('never shrinks below the last stretch nor grows past 32 times it', () => {
    expect(nextStretchLength(1000, 1000, 99, 1)).toBe(1000);
    expect(nextStretchLength(1000, 1000, 1, 99)).toBe(32_000);
  });
});

describe('a channel search over stretches sized by density', () => {
  let t: TestServer;
  let sparse: number;
  let fading: number;
  const written: Array<{ id: number; stream: number }> = [];

  beforeAll(async () => {
    t = await startTestServer();
    const a = t.accounts;
    const busy = createChannel(t, { name: 'busy', subscribers: [a.owner.id, a.member.id] });
    sparse = createChannel(t, { name: 'sparse', subscribers: [a.owner.id, a.member.id] });
    fading = createChannel(t, { name: 'fading', subscribers: [a.owner.id, a.member.id] });
    const { ctx } = t.server;
    ctx.transaction(() => {
      // "common" in every message. `sparse` has one message in 25 throughout;
      // `fading` one in 8 among the newest 400 and one in 200 before them,
      // so a stretch sized from the newest ones falls short.
      for (let i = 0; i < 4000; i++) {
        let stream = busy;
        if (i % 25 === 11) stream = sparse;
        else if (i >= 3600 ? i % 8 === 1 : i % 200 === 1) stream = fading;
        const id = insertMessage(ctx.db, {
          sender_id: a.owner.id,
          stream_id: stream,
          dm_group_id: null,
          topic: 'bulk',
          content: 'common words',
          rendered_content: '<p>common words</p>',
          date_sent: 1_700_000_000 + i,
          sending_client: 'test',
          has_link: false,
        });
        written.push({ id, stream });
      }
    });
  });
  afterAll(() => t.close());

  /** The newest `limit` matches in the channel, and how many stretches they took. */
  function newestIn(channel: string, limit: number) {
    const { ctx } = t.server;
    const member = userById(ctx.db, t.accounts.member.id)!;
    const resolved = resolveNarrow(
      ctx,
      member,
      [
        { operator: 'channel', operand: channel, negated: false },
        { operator: 'search', operand: 'common', negated: false },
      ],
      { allowHistory: true, needUnreadBound: false },
    );
    const q = narrowQuery(resolved.visibility, resolved.conditions);
    const { result: messages, stretches } = countStretches(ctx.db, q, () =>
      messagesUpTo(ctx.db, q, Number.MAX_SAFE_INTEGER, limit),
    );
    return { ids: messages.map((m) => m.id), stretches };
  }

  it('sizes the first stretch from the share of its ids the channel holds', () => {
    // 256 matches would hold about 10 rows of `sparse`; 60 wanted would take
    // 256 + 1,024 + 4,096 ids growing four times each, one stretch of twice
    // the predicted length here.
    const { ids, stretches } = newestIn('sparse', 60);
    const want = written.filter((m) => m.stream === sparse).map((m) => m.id);
    expect(ids).toEqual(want.slice(-60).reverse());
    expect(stretches).toBe(1);
  });

  it('goes on with further stretches when the rows thin out, and misses none', () => {
    const { ids, stretches } = newestIn('fading', 60);
    const want = written.filter((m) => m.stream === fading).map((m) => m.id);
    expect(want.length).toBeGreaterThan(60);
    expect(ids).toEqual(want.slice(-60).reverse());
    expect(stretches).toBeGreaterThan(1);
  });
});
