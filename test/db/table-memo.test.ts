import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tableMemo } from '../../server/db/table-memo.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/*
 * tableMemo keeps a value until one of its tables is written, including
 * values built inside a transaction: a rollback, of a whole transaction or
 * of one savepoint, counts every table as written, so rows it undid never
 * outlive it in a memo.
 */

let t: TestServer;
let builds = 0;
const linkifierCount = tableMemo(['realm_linkifiers'], ({ db }: TestServer['server']['ctx']) => {
  builds++;
  return db.prepare('SELECT count(*) FROM realm_linkifiers').pluck().get() as number;
});
let nextId = 1;
const addLinkifier = () =>
  t.server.ctx.db
    .prepare(
      "INSERT INTO realm_linkifiers (id, pattern, url_template, sort_order) VALUES (?, '#(?P<id>[0-9]+)', 'https://bugs.example/{id}', 0)",
    )
    .run(nextId++);

/** A transaction, or a savepoint inside one, that adds a linkifier, reads the memo and fails. */
const addAndReadThenRollBack = () =>
  expect(() =>
    t.server.ctx.transaction(() => {
      addLinkifier();
      expect(linkifierCount(t.server.ctx)).toBe(1);
      throw new Error('undo');
    }),
  ).toThrow('undo');

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => {
  t.server.ctx.db.prepare('DELETE FROM realm_linkifiers').run();
});

describe('tableMemo', () => {
  it('builds once until its table is written', () => {
    const { ctx } = t.server;
    expect(linkifierCount(ctx)).toBe(0);
    const before = builds;
    expect(linkifierCount(ctx)).toBe(0);
    expect(builds).toBe(before);
    addLinkifier();
    expect(linkifierCount(ctx)).toBe(1);
    expect(builds).toBe(before + 1);
  });

  it('keeps a value built inside a transaction that commits', () => {
    const { ctx } = t.server;
    ctx.transaction(() => {
      addLinkifier();
      expect(linkifierCount(ctx)).toBe(1);
    });
    const before = builds;
    expect(linkifierCount(ctx)).toBe(1);
    expect(builds).toBe(before);
  });

  it('drops a value built from rows a rolled-back transaction wrote', () => {
    const { ctx } = t.server;
    expect(linkifierCount(ctx)).toBe(0);
    addAndReadThenRollBack();
    expect(linkifierCount(ctx)).toBe(0);
  });

  it('drops a value built inside a savepoint that rolled back alone', () => {
    const { ctx } = t.server;
    ctx.transaction(() => {
      addAndReadThenRollBack();
      expect(linkifierCount(ctx)).toBe(0);
    });
    expect(linkifierCount(ctx)).toBe(0);
  });
});
