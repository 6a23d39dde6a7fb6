/**
 * Gitea and Forgejo through the real door: each payload (written from
 * Gitea's api/structs) posts the right message in the right topic, the
 * events it does not post are answered as Zulip answers them, and
 * `branches` filters pushes.
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
const fixture = (name: string): any => structuredClone(payload('gitea', name));

async function hook(
  event: string,
  body: unknown,
  query: Record<string, string> = {},
  integration = 'gitea',
) {
  const since = await watermark(t);
  const header = integration === 'forgejo' ? 'X-Forgejo-Event' : 'X-Gitea-Event';
  const answer = await deliver(t, integration, {
    key,
    query: { stream: 'devel', ...query },
    headers: { [header]: event },
    body,
  });
  return { answer, posted: await postedSince(t, since) };
}

describe('Gitea', () => {
  it('a push: the commits, in the branch’s topic', async () => {
    const { answer, posted } = await hook('push', fixture('push'));
    expect(answer).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      channel: 'devel',
      topic: 'lighthouse / main',
      client: 'ZulipGiteaWebhook',
    });
    expect(posted[0]!.content).toBe(
      [
        '**ines** pushed 2 commits to [`main`](https://git.lan.example/hearth-team/lighthouse/compare/6dcb09b5b57875f334f61aebed695e2e4193db5e...9f1c2e7a4b0d3c5e8f7a6b5c4d3e2f1a0b9c8d7e):',
        '* [`4b2f0c9`](https://git.lan.example/hearth-team/lighthouse/commit/4b2f0c9d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c) Rotate the beacon logs daily',
        '* [`9f1c2e7`](https://git.lan.example/hearth-team/lighthouse/commit/9f1c2e7a4b0d3c5e8f7a6b5c4d3e2f1a0b9c8d7e) Fix the lamp timer on *DST* change (tomas)',
      ].join('\n'),
    );
  });

  it('branches: pushes to other branches are not posted', async () => {
    const { answer, posted } = await hook('push', fixture('push'), { branches: 'release, stable' });
    expect(answer.body.result).toBe('success');
    expect(posted).toEqual([]);
    const kept = await hook('push', fixture('push'), { branches: 'stable,main' });
    expect(kept.posted).toHaveLength(1);
  });

  it('a push of a new branch without commits, or of a tag, is left to the create event', async () => {
    const empty = fixture('push');
    empty.before = '0000000000000000000000000000000000000000';
    empty.commits = [];
    empty.total_commits = 0;
    const first = await hook('push', empty);
    expect(first.answer.body).toEqual({ result: 'success', msg: '' });
    expect(first.posted).toEqual([]);
    const tag = fixture('push');
    tag.ref = 'refs/tags/v1.4.0';
    const second = await hook('push', tag);
    expect(second.answer.body).toEqual({ result: 'success', msg: '' });
    expect(second.posted).toEqual([]);
  });

  it('a branch created and a tag deleted', async () => {
    const created = await hook('create', fixture('create'));
    expect(created.posted[0]).toMatchObject({ topic: 'lighthouse / feature/night-mode' });
    expect(created.posted[0]!.content).toBe(
      '**ines** created branch [`feature/night-mode`](https://git.lan.example/hearth-team/lighthouse/src/branch/feature%2Fnight-mode).',
    );
    const tag = fixture('create');
    tag.ref = 'v1.3.9';
    tag.ref_type = 'tag';
    const deleted = await hook('delete', tag);
    expect(deleted.posted[0]).toMatchObject({
      topic: 'lighthouse',
      content: '**ines** deleted tag `v1.3.9`.',
    });
  });

  it('an issue opened: its description quoted, comments and mentions kept quiet', async () => {
    const { posted } = await hook('issues', fixture('issues'));
    expect(posted[0]!.topic).toBe('lighthouse / issue #42 Lamp flickers after midnight');
    expect(posted[0]!.content).toBe(
      [
        '**tomas** opened [issue #42](https://git.lan.example/hearth-team/lighthouse/issues/42) (assigned to **ines**):',
        '```quote',
        'Seen twice this week.',
        '',
        'Steps: wait for 00:00, watch the lamp. @_**all** should know.',
        '```',
      ].join('\n'),
    );
  });

  it('an issue closed; with topic= the message names the issue in full', async () => {
    const closed = fixture('issues');
    closed.action = 'closed';
    const plain = await hook('issues', closed);
    expect(plain.posted[0]!.content).toBe(
      '**tomas** closed [issue #42](https://git.lan.example/hearth-team/lighthouse/issues/42).',
    );
    const fixed = await hook('issues', closed, { topic: 'Bugs' });
    expect(fixed.posted[0]).toMatchObject({
      topic: 'Bugs',
      content:
        '**tomas** closed [issue #42 Lamp flickers after midnight](https://git.lan.example/hearth-team/lighthouse/issues/42).',
    });
  });

  it('label changes are not posted', async () => {
    const labeled = fixture('issues');
    labeled.action = 'label_updated';
    const { answer, posted } = await hook('issues', labeled);
    expect(answer.body.result).toBe('success');
    expect(posted).toEqual([]);
  });

  it('a pull request opened, then merged', async () => {
    const opened = await hook('pull_request', fixture('pull_request'));
    expect(opened.posted[0]!.topic).toBe('lighthouse / PR #43 Night mode for the lamp');
    expect(opened.posted[0]!.content).toBe(
      [
        '**ines** opened [PR #43](https://git.lan.example/hearth-team/lighthouse/pulls/43) `feature/night-mode` → `main`:',
        '```quote',
        'Dims the lamp between 23:00 and 06:00.',
        '```',
      ].join('\n'),
    );
    const merged = fixture('pull_request');
    merged.action = 'closed';
    merged.pull_request.merged = true;
    merged.pull_request.merged_by = { login: 'tomas', username: 'tomas' };
    const done = await hook('pull_request', merged);
    expect(done.posted[0]!.content).toBe(
      '**tomas** merged [PR #43](https://git.lan.example/hearth-team/lighthouse/pulls/43).',
    );
  });

  it('a review approving a pull request', async () => {
    const approved = fixture('pull_request');
    approved.action = 'reviewed';
    approved.sender = { login: 'tomas', username: 'tomas' };
    approved.review = { type: 'pull_request_review_approved', content: 'Ship it.' };
    const { posted } = await hook('pull_request_approved', approved);
    expect(posted[0]).toMatchObject({
      topic: 'lighthouse / PR #43 Night mode for the lamp',
      content:
        '**tomas** approved [PR #43](https://git.lan.example/hearth-team/lighthouse/pulls/43):\n```quote\nShip it.\n```',
    });
  });

  it('a comment on a pull request goes to the pull request’s topic', async () => {
    const { posted } = await hook('issue_comment', fixture('issue_comment'));
    expect(posted[0]).toMatchObject({
      topic: 'lighthouse / PR #43 Night mode for the lamp',
      content: [
        '**tomas** [commented](https://git.lan.example/hearth-team/lighthouse/pulls/43#issuecomment-501) on [PR #43](https://git.lan.example/hearth-team/lighthouse/pulls/43):',
        '```quote',
        'Looks good; can we make the hours configurable?',
        '```',
      ].join('\n'),
    });
  });

  it('a release published, with its notes', async () => {
    const { posted } = await hook('release', fixture('release'));
    expect(posted[0]).toMatchObject({
      topic: 'lighthouse / v1.4.0 Harbour',
      content: [
        '**ines** published release [v1.4.0 Harbour](https://git.lan.example/hearth-team/lighthouse/releases/tag/v1.4.0):',
        '```quote',
        '* Night mode',
        '* Daily log rotation',
        '```',
      ].join('\n'),
    });
  });

  it('an event it does not post: UNSUPPORTED_WEBHOOK_EVENT_TYPE, answered 200', async () => {
    const { answer, posted } = await hook('wiki', { action: 'edited', repository: {}, sender: {} });
    expect(answer).toEqual({
      status: 200,
      body: {
        result: 'error',
        msg: "The 'wiki' event isn't currently supported by the Gitea webhook; ignoring",
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        webhook_name: 'Gitea',
        event_type: 'wiki',
      },
    });
    expect(posted).toEqual([]);
  });

  it('no event header: MISSING_HTTP_EVENT_HEADER', async () => {
    const since = await watermark(t);
    const answer = await deliver(t, 'gitea', {
      key,
      query: { stream: 'devel' },
      body: fixture('push'),
    });
    expect(answer).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: "Missing the HTTP event header 'X-Gitea-Event'",
        code: 'MISSING_HTTP_EVENT_HEADER',
        header: 'X-Gitea-Event',
      },
    });
    expect(await postedSince(t, since)).toEqual([]);
  });

  it('Gitea’s form mode: the JSON in the payload field', async () => {
    const since = await watermark(t);
    const answer = await deliver(t, 'gitea', {
      key,
      query: { stream: 'devel' },
      headers: { 'X-Gitea-Event': 'push' },
      contentType: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({ payload: JSON.stringify(fixture('push')) }).toString(),
    });
    expect(answer.body.result).toBe('success');
    expect(await postedSince(t, since)).toHaveLength(1);
  });
});

describe('Forgejo', () => {
  it('reads X-Forgejo-Event and posts under its own name', async () => {
    const { answer, posted } = await hook('push', fixture('push'), {}, 'forgejo');
    expect(answer.body.result).toBe('success');
    expect(posted[0]).toMatchObject({ topic: 'lighthouse / main', client: 'ZulipForgejoWebhook' });
  });

  it('falls back to X-Gitea-Event, which Forgejo sends too', async () => {
    const since = await watermark(t);
    const answer = await deliver(t, 'forgejo', {
      key,
      query: { stream: 'devel' },
      headers: { 'X-Gitea-Event': 'push' },
      body: fixture('push'),
    });
    expect(answer.body.result).toBe('success');
    expect(await postedSince(t, since)).toHaveLength(1);
  });
});
