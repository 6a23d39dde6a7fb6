/**
 * Jenkins's Notification plugin through the real door (payload from the
 * plugin's documented JSON format): started and completed builds in the
 * job's topic, queued and finalized ones left out, phases as event types.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { deliver, payload, postedSince, watermark, webhookSetup } from './webhooks.js';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  key = webhookSetup(t).bot.apiKey;
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: payloads are edited freely
type Payload = any;

const build = (phase: string, status?: string): Payload => {
  const p: Payload = structuredClone(payload('jenkins', 'completed'));
  p.build.phase = phase;
  if (status !== undefined) p.build.status = status;
  if (phase !== 'COMPLETED') delete p.build.duration;
  return p;
};

async function hook(body: unknown, query: Record<string, string | string[]> = {}) {
  const since = await watermark(t);
  const answer = await deliver(t, 'jenkins', { key, query: { stream: 'ci', ...query }, body });
  return { answer, posted: await postedSince(t, since) };
}

const BUILD = 'http://jenkins.lan.example:8080/job/harbour-api/218/';

describe('Jenkins', () => {
  beforeAll(() => {
    webhookSetup(t, 'ci');
  });

  it('a build that failed', async () => {
    const { answer, posted } = await hook(build('COMPLETED'));
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    expect(posted[0]).toMatchObject({
      channel: 'ci',
      topic: 'harbour-api',
      client: 'ZulipJenkinsWebhook',
      content: `Build [#218](${BUILD}) of **harbour-api** ❌ failed in 1m 35s on \`main\` (\`da15608\`).`,
    });
  });

  it('a build that succeeded, and one that started', async () => {
    expect((await hook(build('COMPLETED', 'SUCCESS'))).posted[0]!.content).toBe(
      `Build [#218](${BUILD}) of **harbour-api** ✅ succeeded in 1m 35s on \`main\` (\`da15608\`).`,
    );
    expect((await hook(build('STARTED', null as unknown as string))).posted[0]!.content).toBe(
      `Build [#218](${BUILD}) of **harbour-api** started on \`main\` (\`da15608\`).`,
    );
  });

  it('queued and finalized builds are not posted', async () => {
    for (const phase of ['QUEUED', 'FINALIZED']) {
      const { answer, posted } = await hook(build(phase));
      expect(answer.body).toEqual({ result: 'success', msg: '' });
      expect(posted).toEqual([]);
    }
  });

  it('only_events=["completed"] leaves out the started ones', async () => {
    const only = { only_events: ['completed'] };
    expect((await hook(build('STARTED'), only)).posted).toEqual([]);
    expect((await hook(build('COMPLETED'), only)).posted).toHaveLength(1);
  });

  it('a payload of another tool', async () => {
    const { answer, posted } = await hook({ object_kind: 'pipeline', builds: [] });
    expect(answer).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: 'Unable to parse request: Did Jenkins generate this event?',
        code: 'ANOMALOUS_WEBHOOK_PAYLOAD',
        webhook_name: 'Jenkins',
      },
    });
    expect(posted).toEqual([]);
  });
});
