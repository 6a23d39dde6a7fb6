/**
 * Group commit's fsync off the event loop (core/durable-commits.ts): a
 * batch's answers and events wait for the fsync of its commit, and what
 * follows commits keeps commit order, also when a write synced by SQLite
 * itself lands while a batch still waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stmt } from '../../server/db/prepared.js';
import type { PendingEvent } from '../../server/events/hub.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const turn = () => new Promise((resolve) => setImmediate(resolve));

function addWord(word: string) {
  const { ctx } = t.server;
  const member = t.accounts.member.id;
  return ctx.transaction((tx) => {
    stmt(ctx.db, 'INSERT INTO alert_words (user_id, word) VALUES (?, ?)').run(member, word);
    tx.emit({
      type: 'alert_words',
      users: [member],
      payload: { type: 'alert_words', alert_words: [word] },
    });
    return word;
  });
}

function delivered(): { words: string[]; stop: () => void } {
  const words: string[] = [];
  const stop = t.server.ctx.events.observe((event: PendingEvent) => {
    const payload = event.payload as { alert_words?: string[] };
    if (event.type === 'alert_words' && payload.alert_words) words.push(payload.alert_words[0]!);
  });
  return { words, stop };
}

describe('durable group commits', () => {
  it('answer a batch and deliver its events only after its fsync', async () => {
    const seen = delivered();
    let answered = false;
    const batch = t.server.ctx
      .batch(() => addWord('first'))
      .then((word) => {
        answered = true;
        return word;
      });
    await turn(); // the batch has run and committed; its fsync is on the thread pool
    expect(
      t.server.ctx.db
        .prepare("SELECT count(*) FROM alert_words WHERE word = 'first'")
        .pluck()
        .get(),
    ).toBe(1);
    expect(seen.words).toEqual([]);
    expect(answered).toBe(false);
    expect(await batch).toBe('first');
    expect(seen.words).toEqual(['first']);
    seen.stop();
  });

  it('a write synced by SQLite while a batch waits releases the batch first', async () => {
    const seen = delivered();
    const batch = t.server.ctx.batch(() => addWord('batched'));
    await turn();
    expect(seen.words).toEqual([]);
    // Its COMMIT fsyncs the WAL, which holds the batch's commit too.
    addWord('direct');
    expect(seen.words).toEqual(['batched', 'direct']);
    expect(await batch).toBe('batched');
    expect(seen.words).toEqual(['batched', 'direct']);
    seen.stop();
  });

  it('follow the level set for the connection, and leave it as it was', async () => {
    const { ctx } = t.server;
    const level = () => ctx.db.pragma('synchronous', { simple: true });
    const start = ctx.groupCommitStats();
    // NORMAL (the bench's reference): the answer follows the commit, no fsync waited for.
    ctx.setSynchronous('NORMAL');
    try {
      await ctx.batch(() => addWord('unsynced'));
      expect(level()).toBe(1);
    } finally {
      ctx.setSynchronous('FULL');
    }
    const normal = ctx.groupCommitStats();
    expect(normal.batches - start.batches).toBe(1);
    expect(normal.waited).toBe(start.waited);
    // Back at FULL, the next batch waits for an fdatasync again.
    await ctx.batch(() => addWord('synced'));
    expect(level()).toBe(2);
    const full = ctx.groupCommitStats();
    expect(full.waited - normal.waited).toBe(1);
    expect(full.syncs).toBeGreaterThan(normal.syncs);
    expect(full.writes - start.writes).toBe(2);
  });

  it('refuse a group-commit write that is not synchronous', async () => {
    const late = t.server.ctx.batch(() => Promise.resolve('later'));
    await expect(late).rejects.toThrow('a group-commit write must be synchronous');
  });
});
