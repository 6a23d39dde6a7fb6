/**
 * GitHub (Enterprise Server) through the real door, with payloads written
 * from GitHub's "Webhook events and payloads" reference (the repository and
 * sender objects, shared by every event, are kept once: REPOSITORY and
 * SENDER stand for them). Zulip's event names for the filters; the events
 * it leaves out; ignore_private_repositories.
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

const SHARED: Record<string, () => unknown> = {
  REPOSITORY: () => payload('github', 'repository'),
  SENDER: () => payload('github', 'sender'),
  PULL_REQUEST: () =>
    expand((payload('github', 'pull_request') as { pull_request: unknown }).pull_request),
};

function expand(value: unknown): unknown {
  if (typeof value === 'string' && SHARED[value]) return SHARED[value]();
  if (Array.isArray(value)) return value.map(expand);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
  }
  return value;
}

// biome-ignore lint/suspicious/noExplicitAny: payloads are edited freely
const fixture = (name: string): any => expand(payload('github', name));

async function hook(
  event: string,
  body: unknown,
  query: Record<string, string | string[] | boolean> = {},
) {
  const since = await watermark(t);
  const answer = await deliver(t, 'github', {
    key,
    query: { stream: 'devel', ...query },
    headers: {
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
    },
    body,
  });
  return { answer, posted: await postedSince(t, since) };
}

const PR = 'https://ghe.lan.example/harbour/tidewatch/pull/17';

describe('GitHub', () => {
  it('ping: the webhook is set up', async () => {
    const { answer, posted } = await hook('ping', fixture('ping'));
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    expect(posted[0]).toMatchObject({
      topic: 'tidewatch',
      client: 'ZulipGitHubWebhook',
      content:
        'GitHub webhook set up by **octomara**: events from **harbour/tidewatch** will be posted here.',
    });
  });

  it('a push', async () => {
    const { posted } = await hook('push', fixture('push'));
    expect(posted[0]).toMatchObject({
      topic: 'tidewatch / main',
      content: [
        '**octomara** pushed 1 commit to [`main`](https://ghe.lan.example/harbour/tidewatch/compare/6113728f27ae...0d1a26e67d8f):',
        '* [`0d1a26e`](https://ghe.lan.example/harbour/tidewatch/commit/0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c) Use the new tide tables',
      ].join('\n'),
    });
  });

  it('a force push, a new branch, a deleted branch, a tag', async () => {
    const forced = fixture('push');
    forced.forced = true;
    forced.commits = [];
    expect((await hook('push', forced)).posted[0]!.content).toBe(
      '**octomara** force-pushed [`main`](https://ghe.lan.example/harbour/tidewatch/compare/6113728f27ae...0d1a26e67d8f), now at [`0d1a26e`](https://ghe.lan.example/harbour/tidewatch/commit/0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c).',
    );
    const created = fixture('push');
    created.created = true;
    created.ref = 'refs/heads/spring-warning';
    created.commits = [];
    expect((await hook('push', created)).posted[0]).toMatchObject({
      topic: 'tidewatch / spring-warning',
      content:
        '**octomara** created branch [`spring-warning`](https://ghe.lan.example/harbour/tidewatch/tree/spring-warning).',
    });
    const deleted = fixture('push');
    deleted.deleted = true;
    deleted.ref = 'refs/heads/spring-warning';
    deleted.commits = [];
    deleted.head_commit = null;
    expect((await hook('push', deleted)).posted[0]!.content).toBe(
      '**octomara** deleted branch `spring-warning`.',
    );
    const tag = fixture('push');
    tag.ref = 'refs/tags/v0.9.0';
    tag.commits = [];
    expect((await hook('push', tag)).posted[0]).toMatchObject({
      topic: 'tidewatch',
      content:
        '**octomara** pushed tag [`v0.9.0`](https://ghe.lan.example/harbour/tidewatch/releases/tag/v0.9.0).',
    });
  });

  it('branches, and only_events on Zulip’s names (push_commits, push_tags)', async () => {
    expect((await hook('push', fixture('push'), { branches: 'release' })).posted).toEqual([]);
    expect((await hook('push', fixture('push'), { only_events: ['push_tags'] })).posted).toEqual(
      [],
    );
    expect((await hook('push', fixture('push'), { only_events: ['push_*'] })).posted).toHaveLength(
      1,
    );
  });

  it('a pull request opened: description quoted, in the pull request’s topic', async () => {
    const { posted } = await hook('pull_request', fixture('pull_request'));
    expect(posted[0]!.topic).toBe('tidewatch / PR #17 Spring tides: warn a day ahead');
    expect(posted[0]!.content).toBe(
      [
        `**octomara** opened [PR #17](${PR}) \`spring-warning\` → \`main\`:`,
        '```quote',
        'Adds a warning 24 h before spring tides.',
        '',
        '- [x] tests',
        '- [ ] docs',
        '```',
      ].join('\n'),
    );
  });

  it('a pull request merged; labels are not posted; an unknown action is unsupported', async () => {
    const merged = fixture('pull_request');
    merged.action = 'closed';
    merged.pull_request.merged = true;
    merged.pull_request.merged_by = { login: 'hanne', html_url: 'https://ghe.lan.example/hanne' };
    expect((await hook('pull_request', merged)).posted[0]!.content).toBe(
      `**hanne** merged [PR #17](${PR}).`,
    );
    const labeled = fixture('pull_request');
    labeled.action = 'labeled';
    const quiet = await hook('pull_request', labeled);
    expect(quiet.answer.body).toEqual({ result: 'success', msg: '' });
    expect(quiet.posted).toEqual([]);
    const odd = fixture('pull_request');
    odd.action = 'teleported';
    const unsupported = await hook('pull_request', odd);
    expect(unsupported.answer).toEqual({
      status: 200,
      body: {
        result: 'error',
        msg: "The 'pull_request:teleported' event isn't currently supported by the GitHub webhook; ignoring",
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        webhook_name: 'GitHub',
        event_type: 'pull_request:teleported',
      },
    });
  });

  it('a review approving it, and a comment on it, in its topic', async () => {
    const review = await hook('pull_request_review', fixture('pull_request_review'));
    expect(review.posted[0]).toMatchObject({
      topic: 'tidewatch / PR #17 Spring tides: warn a day ahead',
      content: `**hanne** [approved](${PR}#pullrequestreview-80) [PR #17](${PR}).`,
    });
    const comment = await hook('issue_comment', fixture('issue_comment'));
    expect(comment.posted[0]).toMatchObject({
      topic: 'tidewatch / PR #17 Spring tides: warn a day ahead',
      content: `**hanne** [commented](${PR}#issuecomment-1501) on [PR #17](${PR}):\n\`\`\`quote\nCould the warning go to the harbour master too?\n\`\`\``,
    });
  });

  it('an issue opened, then labeled', async () => {
    const opened = await hook('issues', fixture('issues'));
    expect(opened.posted[0]).toMatchObject({
      topic: 'tidewatch / issue #18 Neap tides shown as spring tides',
      content:
        '**octomara** opened [issue #18](https://ghe.lan.example/harbour/tidewatch/issues/18):\n```quote\nOn 9 March the page says **spring**; it is a neap tide.\n```',
    });
    const labeled = fixture('issues');
    labeled.action = 'labeled';
    labeled.label = { name: 'bug' };
    const { posted } = await hook('issues', labeled, { topic: 'Bugs' });
    expect(posted[0]).toMatchObject({
      topic: 'Bugs',
      content:
        '**octomara** added the label `bug` to [issue #18 Neap tides shown as spring tides](https://ghe.lan.example/harbour/tidewatch/issues/18).',
    });
  });

  it('a release published, and a workflow run that failed', async () => {
    const release = await hook('release', fixture('release'));
    expect(release.posted[0]).toMatchObject({
      topic: 'tidewatch / v0.9.0 Neap',
      content:
        '**octomara** published release [v0.9.0 Neap](https://ghe.lan.example/harbour/tidewatch/releases/tag/v0.9.0):\n```quote\nSpring-tide warnings.\n```',
    });
    const run = await hook('workflow_run', fixture('workflow_run'));
    expect(run.posted[0]).toMatchObject({
      topic: 'tidewatch / spring-warning',
      content:
        'Workflow [CI #562](https://ghe.lan.example/harbour/tidewatch/actions/runs/30433642) on `spring-warning` ❌ failed.',
    });
  });

  it('events reported by others are not posted (create, status)', async () => {
    for (const event of ['create', 'status', 'check_suite']) {
      const { answer, posted } = await hook(event, fixture('push'));
      expect(answer.body).toEqual({ result: 'success', msg: '' });
      expect(posted).toEqual([]);
    }
  });

  it('ignore_private_repositories', async () => {
    const secret = fixture('push');
    secret.repository.private = true;
    expect((await hook('push', secret, { ignore_private_repositories: true })).posted).toEqual([]);
    expect((await hook('push', secret)).posted).toHaveLength(1);
  });

  it('an event it does not post: UNSUPPORTED_WEBHOOK_EVENT_TYPE', async () => {
    const member = {
      action: 'added',
      member: { login: 'hanne' },
      repository: fixture('repository'),
      sender: fixture('sender'),
    };
    const { answer, posted } = await hook('member', member);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
      event_type: 'member:added',
    });
    expect(posted).toEqual([]);
  });
});
