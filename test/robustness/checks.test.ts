/**
 * The fuzz test's judges must be able to fail: each rule is shown a bad
 * answer and a real change to stored data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { problemWith } from './answer-rules.js';
import { ChangeWatch } from './db-digest.js';

const api = { atRoot: false };
const file = { atRoot: true };
const json = 'application/json; charset=utf-8';
const error = JSON.stringify({ result: 'error', msg: 'Invalid x', code: 'BAD_REQUEST' });

describe('problemWith', () => {
  it('accepts a JSON error with a code and a success', () => {
    expect(problemWith(api, { status: 400, contentType: json, text: error }, false)).toBeNull();
    expect(problemWith(api, { status: 200, contentType: json, text: '{}' }, false)).toBeNull();
  });

  it('refuses any 5xx, even in the envelope', () => {
    const answer = { status: 500, contentType: json, text: error };
    expect(problemWith(api, answer, false)).toMatch(/answered 500/);
    expect(problemWith(file, answer, false)).toMatch(/answered 500/);
  });

  it('refuses a rejection that changed stored data', () => {
    const answer = { status: 400, contentType: json, text: error };
    expect(problemWith(api, answer, true)).toMatch(/changed stored data/);
  });

  it('refuses an API error that is not JSON or has no code', () => {
    const plain = { status: 404, contentType: 'text/plain', text: 'Not Found' };
    expect(problemWith(api, plain, false)).toMatch(/non-JSON/);
    const noCode = { status: 400, contentType: json, text: '{"result":"error","msg":"x"}' };
    expect(problemWith(api, noCode, false)).toMatch(/envelope/);
  });

  it('lets file routes answer a plain 4xx', () => {
    const plain = { status: 404, contentType: 'text/plain', text: 'Not Found' };
    expect(problemWith(file, plain, false)).toBeNull();
  });
});

describe('ChangeWatch', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ scheduledDelivery: false });
  });
  afterAll(() => t.close());

  it('sees a committed write and nothing else', () => {
    const { db } = t.server.ctx;
    const watch = new ChangeWatch(db);
    watch.before();
    expect(watch.changed()).toBe(false);
    watch.before();
    db.prepare('UPDATE users SET full_name = ? WHERE id = ?').run('Changed', t.accounts.guest.id);
    expect(watch.changed()).toBe(true);
  });

  it('does not count a rolled-back write as a change', () => {
    const { db } = t.server.ctx;
    const watch = new ChangeWatch(db);
    watch.before();
    expect(() =>
      db.transaction(() => {
        db.prepare('UPDATE users SET full_name = ? WHERE id = ?').run('Gone', t.accounts.guest.id);
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(watch.changed()).toBe(false);
  });
});
