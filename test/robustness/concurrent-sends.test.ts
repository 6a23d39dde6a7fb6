/**
 * Concurrent sends share one commit (core/write-batcher.ts), each in its own
 * savepoint. Hostile sends mixed into the same batches must fail alone: every
 * valid send is stored exactly once, no refused one leaves a trace, and no
 * answer is a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type Callers, setUpCallers } from './callers.js';
import { hostileTexts, pick, seededRandom } from './hostile-values.js';

let t: TestServer;
let callers: Callers;

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false, outgoingWebhookTimeoutMs: 200 });
  callers = setUpCallers(t);
  createChannel(t, { name: 'busy', subscribers: Object.values(callers.ids) });
});
afterAll(() => t.close());

const senders = ['owner', 'member', 'guest', 'generic_bot', 'incoming_bot'] as const;

describe('hostile sends inside shared commits', () => {
  it('fail alone', async () => {
    const random = seededRandom(0xbadc0de);
    const countMessages = () =>
      t.server.ctx.db.prepare('SELECT count(*) FROM messages').pluck().get() as number;
    const before = countMessages();
    const requests = Array.from({ length: 120 }, (_, i) => {
      const valid = i % 2 === 0;
      const content = valid ? `valid send ${i}` : pick(random, hostileTexts);
      const params: Record<string, string> = valid
        ? { type: 'stream', to: 'busy', topic: `t${i % 5}`, content }
        : pick<Record<string, string>>(random, [
            { type: 'stream', to: 'busy', topic: 'x', content: 'y'.repeat(10_001) },
            { type: 'stream', to: 'no such channel', topic: 'x', content: 'z' },
            { type: 'stream', to: 'busy', topic: 'x'.repeat(61), content: 'z' },
            { type: 'direct', to: '[-1]', content: 'z' },
            { type: 'direct', to: content, content: 'z' },
            { type: 'stream', to: content, topic: content, content },
            { type: 'stream', to: 'busy', topic: 'x', content: '' },
          ]);
      const who = senders[i % senders.length]!;
      return fetch(`${t.url}/api/v1/messages`, {
        method: 'POST',
        headers: {
          authorization: callers.authorization(who)!,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(params).toString(),
      }).then(async (res) => ({ valid, status: res.status, body: await res.json() }));
    });
    const answers = await Promise.all(requests);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const accepted = answers.filter((a) => a.status === 200);
    // Valid sends all succeed; a hostile one may be valid text (e.g. "0").
    expect(answers.filter((a) => a.valid && a.status !== 200)).toEqual([]);
    expect(countMessages() - before).toBe(accepted.length);
    const ids = accepted.map((a) => a.body.id as number);
    expect(new Set(ids).size).toBe(ids.length);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.body).toMatchObject({ result: 'error', code: expect.any(String) });
    }
  });
});
