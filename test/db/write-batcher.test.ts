import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stmt } from '../../server/db/prepared.js';
import { Watcher } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const words = (userId: number) =>
  stmt<[number], { word: string }>(
    t.server.ctx.db,
    'SELECT word FROM alert_words WHERE user_id = ? ORDER BY word',
  )
    .all(userId)
    .map((r) => r.word);

describe('group commit (ctx.batch)', () => {
  it('runs concurrent writes in one transaction; a failing one rolls back alone with its events', async () => {
    const { ctx } = t.server;
    const member = t.accounts.member.id;
    const queue = await Watcher.register(t.as('member'), { event_types: ['alert_words'] });
    const insert = (word: string) =>
      stmt(ctx.db, 'INSERT INTO alert_words (user_id, word) VALUES (?, ?)').run(member, word);
    const emitting = (word: string, fail: boolean) => () =>
      ctx.transaction((tx) => {
        insert(word);
        tx.emit({
          type: 'alert_words',
          users: [member],
          payload: { type: 'alert_words', alert_words: [word] },
        });
        if (fail) throw new Error(`refused ${word}`);
        return word;
      });
    const inTransaction: boolean[] = [];
    const results = await Promise.allSettled([
      ctx.batch(emitting('alpha', false)),
      ctx.batch(emitting('beta', true)),
      ctx.batch(() => {
        inTransaction.push(ctx.db.inTransaction);
        return emitting('gamma', false)();
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('refused beta');
    expect(inTransaction).toEqual([true]);
    expect(words(member)).toEqual(['alpha', 'gamma']);
    const events = await queue.take();
    expect(events.map((e) => e.alert_words[0])).toEqual(['alpha', 'gamma']);
  });

  it('a write alone in its batch that fails leaves nothing behind, events included', async () => {
    const { ctx } = t.server;
    const member = t.accounts.member.id;
    const queue = await Watcher.register(t.as('member'), { event_types: ['alert_words'] });
    const insert = (word: string) =>
      stmt(ctx.db, 'INSERT INTO alert_words (user_id, word) VALUES (?, ?)').run(member, word);
    const before = words(member);
    const lone = ctx.batch(() => {
      insert('lone-raw');
      ctx.transaction((tx) => {
        insert('lone-in-transaction');
        tx.emit({
          type: 'alert_words',
          users: [member],
          payload: { type: 'alert_words', alert_words: ['lone'] },
        });
      });
      throw new Error('refused lone');
    });
    await expect(lone).rejects.toThrow('refused lone');
    expect(ctx.db.inTransaction).toBe(false);
    expect(words(member)).toEqual(before);
    // The next write commits as usual.
    await ctx.batch(() => insert('after-lone'));
    expect(words(member)).toEqual([...before, 'after-lone'].sort());
    expect(await queue.take()).toEqual([]);
  });

  it('a nested transaction that fails inside a write rolls back alone', async () => {
    const { ctx } = t.server;
    const member = t.accounts.member.id;
    const insert = (word: string) =>
      stmt(ctx.db, 'INSERT INTO alert_words (user_id, word) VALUES (?, ?)').run(member, word);
    const before = words(member);
    await ctx.batch(() => {
      insert('outer-kept');
      expect(() =>
        ctx.transaction(() => {
          insert('inner-dropped');
          throw new Error('inner refused');
        }),
      ).toThrow('inner refused');
    });
    expect(words(member)).toEqual([...before, 'outer-kept'].sort());
  });

  it('concurrent sends over HTTP all succeed with distinct ids and one event each', async () => {
    const channel = createChannel(t, {
      name: 'batched',
      subscribers: [t.accounts.member.id, t.accounts.admin.id],
    });
    const queue = await Watcher.register(t.as('admin'), { event_types: ['message'] });
    const sends = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t
          .as('member')
          .post('/messages', { type: 'stream', to: channel, topic: 't', content: `m${i}` }),
      ),
    );
    // One invalid send in the same burst fails alone.
    const bad = await Promise.all([
      t.as('member').post('/messages', { type: 'stream', to: channel, topic: 't', content: 'ok' }),
      t
        .as('member')
        .post('/messages', { type: 'stream', to: 'no such channel', topic: 't', content: 'x' }),
    ]);
    expect(bad.map((r) => r.status)).toEqual([200, 400]);
    const ids = sends.map((r) => r.body.id as number);
    expect(sends.every((r) => r.status === 200)).toBe(true);
    expect(new Set(ids).size).toBe(30);
    const received = await queue.take('message');
    expect(received.map((e) => e.message.id)).toEqual(
      [...ids, bad[0]!.body.id].sort((a, b) => a - b),
    );
  });
});
