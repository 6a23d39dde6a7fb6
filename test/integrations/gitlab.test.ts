/**
 * GitLab through the real door, with payloads written from GitLab's
 * "Webhook events" reference: pushes and tags, merge requests, issues,
 * notes and pipelines, each in Zulip's topic; Zulip's refined event names
 * for the filters; the events it leaves out.
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
const fixture = (name: string): any => structuredClone(payload('gitlab', name));

async function hook(event: string, body: unknown, query: Record<string, string | string[]> = {}) {
  const since = await watermark(t);
  const answer = await deliver(t, 'gitlab', {
    key,
    query: { stream: 'devel', ...query },
    headers: { 'X-Gitlab-Event': event },
    body,
  });
  return { answer, posted: await postedSince(t, since) };
}

const MR = 'https://gitlab.lan.example/ops/harbour-api/-/merge_requests/9';

describe('GitLab', () => {
  it('a push, in the branch’s topic', async () => {
    const { answer, posted } = await hook('Push Hook', fixture('push_hook'));
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    expect(posted[0]).toMatchObject({ topic: 'harbour-api / main', client: 'ZulipGitLabWebhook' });
    expect(posted[0]!.content).toBe(
      [
        '**Amara Okafor** pushed 2 commits to [`main`](https://gitlab.lan.example/ops/harbour-api/-/compare/95790bf891e76fee5e1747ab589903a6a1f80f22...da1560886d4f094c3e6c9ef40349f7d38b5d27d7):',
        '* [`b6568db`](https://gitlab.lan.example/ops/harbour-api/-/commit/b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327) Validate berth numbers',
        "* [`da15608`](https://gitlab.lan.example/ops/harbour-api/-/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7) Merge branch 'tide-tables' into 'main'",
      ].join('\n'),
    );
  });

  it('a branch deleted; more commits than listed are counted', async () => {
    const deleted = fixture('push_hook');
    deleted.after = '0000000000000000000000000000000000000000';
    deleted.ref = 'refs/heads/tide-tables';
    deleted.commits = [];
    deleted.total_commits_count = 0;
    expect((await hook('Push Hook', deleted)).posted[0]).toMatchObject({
      topic: 'harbour-api / tide-tables',
      content: '**Amara Okafor** deleted branch `tide-tables`.',
    });
    const many = fixture('push_hook');
    many.total_commits_count = 45;
    many.commits = Array.from({ length: 20 }, (_, i) => ({
      ...many.commits[0],
      id: `${String(i).padStart(2, '0')}${'a'.repeat(38)}`,
    }));
    const { posted } = await hook('Push Hook', many);
    expect(posted[0]!.content.split('\n')).toHaveLength(22);
    expect(posted[0]!.content).toContain('pushed 45 commits');
    expect(posted[0]!.content.split('\n').at(-1)).toBe('* … and 25 more commits');
  });

  it('branches filters pushes', async () => {
    const other = await hook('Push Hook', fixture('push_hook'), { branches: 'develop' });
    expect(other.answer.body).toEqual({ result: 'success', msg: '' });
    expect(other.posted).toEqual([]);
    expect(
      (await hook('Push Hook', fixture('push_hook'), { branches: 'develop,main' })).posted,
    ).toHaveLength(1);
  });

  it('a tag pushed', async () => {
    const { posted } = await hook('Tag Push Hook', fixture('tag_push_hook'));
    expect(posted[0]).toMatchObject({
      topic: 'harbour-api',
      content:
        '**Amara Okafor** pushed tag [`v2.1.0`](https://gitlab.lan.example/ops/harbour-api/-/tags/v2.1.0).',
    });
  });

  it('a merge request opened, in its own topic', async () => {
    const { posted } = await hook('Merge Request Hook', fixture('merge_request_hook'));
    expect(posted[0]!.topic).toBe('harbour-api / MR #9 Alert when the tide is too low');
    expect(posted[0]!.content).toBe(
      [
        `**Jonas Lind** opened [MR #9](${MR}) \`tide-alerts\` → \`main\` (assigned to **Amara Okafor**):`,
        '```quote',
        'Sends an alert below 1.2 m.',
        '',
        'Closes #31',
        '```',
      ].join('\n'),
    );
  });

  it('a merge request merged, approved, given new commits; updates without news are not posted', async () => {
    const merged = fixture('merge_request_hook');
    merged.object_attributes.action = 'merge';
    expect((await hook('Merge Request Hook', merged)).posted[0]!.content).toBe(
      `**Jonas Lind** merged [MR #9](${MR}).`,
    );
    const approved = fixture('merge_request_hook');
    approved.object_attributes.action = 'approved';
    approved.user = { name: 'Amara Okafor', username: 'amara' };
    expect((await hook('Merge Request Hook', approved)).posted[0]!.content).toBe(
      `**Amara Okafor** approved [MR #9](${MR}).`,
    );
    const pushed = fixture('merge_request_hook');
    pushed.object_attributes.action = 'update';
    pushed.object_attributes.oldrev = '95790bf891e76fee5e1747ab589903a6a1f80f22';
    expect((await hook('Merge Request Hook', pushed)).posted[0]!.content).toBe(
      `**Jonas Lind** pushed new commits to [MR #9](${MR}).`,
    );
    const labelled = fixture('merge_request_hook');
    labelled.object_attributes.action = 'update';
    labelled.changes = { labels: { previous: [], current: [{ title: 'backend' }] } };
    const quiet = await hook('Merge Request Hook', labelled);
    expect(quiet.answer.body.result).toBe('success');
    expect(quiet.posted).toEqual([]);
  });

  it('an issue opened and closed', async () => {
    const opened = await hook('Issue Hook', fixture('issue_hook'));
    expect(opened.posted[0]).toMatchObject({
      topic: 'harbour-api / issue #31 Low tide not reported',
      content:
        '**Amara Okafor** opened [issue #31](https://gitlab.lan.example/ops/harbour-api/-/issues/31):\n```quote\nThe berth page shows full depth at low tide.\n```',
    });
    const closed = fixture('issue_hook');
    closed.object_attributes.action = 'close';
    expect((await hook('Confidential Issue Hook', closed)).posted[0]!.content).toBe(
      '**Amara Okafor** closed [issue #31](https://gitlab.lan.example/ops/harbour-api/-/issues/31).',
    );
  });

  it('a note on a merge request goes to the merge request’s topic', async () => {
    const { posted } = await hook('Note Hook', fixture('note_hook'));
    expect(posted[0]).toMatchObject({
      topic: 'harbour-api / MR #9 Alert when the tide is too low',
      content: [
        `**Amara Okafor** [commented](${MR}#note_1244) on [MR #9](${MR}):`,
        '```quote',
        "Could the threshold come from the berth's settings?",
        '```',
      ].join('\n'),
    });
  });

  it('a pipeline that failed, with its failed jobs; a running one is not posted', async () => {
    const { posted } = await hook('Pipeline Hook', fixture('pipeline_hook'));
    expect(posted[0]).toMatchObject({
      topic: 'harbour-api / main',
      content:
        'Pipeline [#2210](https://gitlab.lan.example/ops/harbour-api/-/pipelines/2210) for `main` ❌ failed in 4m 1s.\n1 failed job: `rspec`',
    });
    const running = fixture('pipeline_hook');
    running.object_attributes.status = 'running';
    const quiet = await hook('Pipeline Hook', running);
    expect(quiet.answer.body.result).toBe('success');
    expect(quiet.posted).toEqual([]);
  });

  it('filters match Zulip’s refined event names', async () => {
    const only = { only_events: ['Merge Request Hook merge', 'Note Hook *'] };
    expect((await hook('Merge Request Hook', fixture('merge_request_hook'), only)).posted).toEqual(
      [],
    );
    expect((await hook('Note Hook', fixture('note_hook'), only)).posted).toHaveLength(1);
    const excluded = await hook('Issue Hook', fixture('issue_hook'), {
      exclude_events: ['Issue Hook open'],
    });
    expect(excluded.posted).toEqual([]);
  });

  it('an event it does not post', async () => {
    const { answer, posted } = await hook('Deployment Hook', {
      object_kind: 'deployment',
      status: 'success',
    });
    expect(answer).toEqual({
      status: 200,
      body: {
        result: 'error',
        msg: "The 'Deployment Hook' event isn't currently supported by the GitLab webhook; ignoring",
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        webhook_name: 'GitLab',
        event_type: 'Deployment Hook',
      },
    });
    expect(posted).toEqual([]);
  });
});
