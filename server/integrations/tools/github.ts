/**
 * GitHub (for teams running GitHub Enterprise Server, or github.com). The
 * event is the X-GitHub-Event header; as in Zulip, it is refined by the
 * payload into the event types only_events and exclude_events match
 * ("opened_pull_request", "push_commits", ...). Payloads: GitHub's
 * "Webhook events and payloads" reference.
 */
import { z } from 'zod';
import { codeSpan, markdownLink } from '../../markdown/index.js';
import { missingEventHeader, unsupportedEvent } from '../toolkit/errors.js';
import { branchWanted } from '../toolkit/filters.js';
import {
  branchOf,
  branchTopic,
  commentMessage,
  type ItemRef,
  itemLink,
  itemMessage,
  itemTopic,
  pushMessage,
  releaseMessage,
  releaseTopic,
  shortSha,
  tagMessage,
  tagOf,
} from '../toolkit/git.js';
import { readPayload } from '../toolkit/payload.js';
import { strong, withQuote } from '../toolkit/text.js';
import {
  type Integration,
  ignore,
  post,
  type WebhookInput,
  type WebhookMessage,
  type WebhookReading,
} from '../types.js';

const TOOL = 'GitHub';

const account = z.object({ login: z.string(), html_url: z.string().nullish() });
const repository = z.object({
  name: z.string(),
  full_name: z.string(),
  html_url: z.string(),
  private: z.boolean().nullish(),
});
const base = z.object({ sender: account, repository });

const pushPayload = base.extend({
  ref: z.string(),
  created: z.boolean().nullish(),
  deleted: z.boolean().nullish(),
  forced: z.boolean().nullish(),
  compare: z.string().nullish(),
  commits: z
    .array(
      z.object({
        id: z.string(),
        message: z.string(),
        url: z.string().nullish(),
        author: z.object({ name: z.string().nullish(), username: z.string().nullish() }).nullish(),
      }),
    )
    .default([]),
  head_commit: z.object({ id: z.string(), url: z.string().nullish() }).nullish(),
});

const pullRequest = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string(),
  merged: z.boolean().nullish(),
  merged_by: account.nullish(),
  head: z.object({ ref: z.string() }),
  base: z.object({ ref: z.string() }),
  assignees: z.array(account).nullish(),
});

const pullRequestPayload = base.extend({
  action: z.string(),
  pull_request: pullRequest,
  assignee: account.nullish(),
  requested_reviewer: account.nullish(),
  requested_team: z.object({ name: z.string() }).nullish(),
});

const reviewPayload = base.extend({
  action: z.string(),
  pull_request: pullRequest,
  review: z.object({
    state: z.string(),
    body: z.string().nullish(),
    html_url: z.string().nullish(),
  }),
  changes: z.record(z.string(), z.unknown()).nullish(),
});

const comment = z.object({
  html_url: z.string().nullish(),
  body: z.string().nullish(),
  commit_id: z.string().nullish(),
});

const reviewCommentPayload = base.extend({
  action: z.string(),
  pull_request: pullRequest,
  comment,
  changes: z.object({ body: z.object({ from: z.string() }).nullish() }).nullish(),
});

const issue = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string(),
  pull_request: z.unknown().optional(),
  assignees: z.array(account).nullish(),
  state_reason: z.string().nullish(),
});

const issuesPayload = base.extend({
  action: z.string(),
  issue,
  assignee: account.nullish(),
  label: z.object({ name: z.string() }).nullish(),
});

const issueCommentPayload = base.extend({
  action: z.string(),
  issue,
  comment,
  changes: z.object({ body: z.object({ from: z.string() }).nullish() }).nullish(),
});

const commitCommentPayload = base.extend({ comment });

const releasePayload = base.extend({
  action: z.string(),
  release: z.object({
    tag_name: z.string(),
    name: z.string().nullish(),
    body: z.string().nullish(),
    html_url: z.string().nullish(),
  }),
});

const forkPayload = base.extend({
  forkee: z.object({ full_name: z.string(), html_url: z.string() }),
});
const starPayload = base.extend({ action: z.string() });

const checkRunPayload = base.extend({
  check_run: z.object({
    name: z.string(),
    status: z.string(),
    conclusion: z.string().nullish(),
    html_url: z.string().nullish(),
    head_sha: z.string(),
  }),
});

const workflowRunPayload = base.extend({
  action: z.string(),
  workflow_run: z.object({
    name: z.string().nullish(),
    run_number: z.number(),
    head_branch: z.string().nullish(),
    conclusion: z.string().nullish(),
    html_url: z.string().nullish(),
  }),
});

const pingPayload = z.object({
  zen: z.string().nullish(),
  sender: account.nullish(),
  repository: repository.nullish(),
  organization: z.object({ login: z.string() }).nullish(),
});

/** Events GitHub sends that are not posted: reported by another event, or too frequent to be worth a message. */
const IGNORED: Record<string, string> = {
  create: 'branches and tags are reported by the push event',
  delete: 'branches and tags are reported by the push event',
  watch: 'stars are reported by the star event',
  status: 'commit statuses are reported by check_run and workflow_run',
  check_suite: 'checks are reported by check_run',
  workflow_job: 'jobs are reported by workflow_run',
  label: 'labels are not posted',
  milestone: 'milestones are not posted',
  meta: 'the webhook itself changed',
};

const IGNORED_PR_ACTIONS = new Set([
  'labeled',
  'unlabeled',
  'converted_to_draft',
  'review_request_removed',
  'milestoned',
  'demilestoned',
  'enqueued',
  'dequeued',
]);

const CONCLUSIONS: Record<string, string> = {
  success: '✅ succeeded',
  failure: '❌ failed',
  cancelled: 'was cancelled',
  timed_out: '❌ timed out',
  action_required: '⚠️ needs action',
  neutral: 'finished',
  skipped: 'was skipped',
  stale: 'went stale',
};

const EVENT_TYPES = [
  'ping',
  'push_commits',
  'push_tags',
  'opened_pull_request',
  'updated_pull_request',
  'assigned_or_unassigned_pull_request',
  'closed_pull_request',
  'pull_request_review_requested',
  'pull_request_ready_for_review',
  'pull_request_review',
  'pull_request_review_comment',
  'issues',
  'issue_labeled_or_unlabeled',
  'issue_comment',
  'commit_comment',
  'release',
  'fork',
  'star',
  'check_run',
  'workflow_run',
];

const prRef = (pr: z.infer<typeof pullRequest>): ItemRef => ({
  kind: 'PR',
  number: pr.number,
  url: pr.html_url,
  title: pr.title,
});

function readGitHub(input: WebhookInput): WebhookReading {
  const header = input.header('X-GitHub-Event');
  if (header === undefined) throw missingEventHeader('X-GitHub-Event');
  const read = <S extends z.ZodType>(schema: S) => readPayload(TOOL, schema, input.payload);
  if (header === 'ping') {
    const p = read(pingPayload);
    const where = p.repository?.full_name ?? p.organization?.login ?? 'this account';
    const topic = p.repository?.name ?? p.organization?.login ?? TOOL;
    const by = p.sender ? ` by ${strong(p.sender.login)}` : '';
    const content = `GitHub webhook set up${by}: events from ${strong(where)} will be posted here.`;
    return post({ topic, content, eventType: 'ping' });
  }
  if (IGNORED[header]) return ignore(IGNORED[header]);
  const { repository: repo } = read(base);
  if (repo.private && input.options.ignorePrivateRepositories) {
    return ignore('a private repository, and the URL has ignore_private_repositories');
  }
  const message = githubMessage(header, input, read);
  return message === null
    ? ignore(`${header} ${actionOf(input.payload) ?? ''}`.trim())
    : post(message);
}

const actionOf = (payload: unknown) =>
  typeof payload === 'object' && payload !== null && 'action' in payload
    ? String((payload as { action: unknown }).action)
    : undefined;

function githubMessage(
  header: string,
  input: WebhookInput,
  read: <S extends z.ZodType>(schema: S) => z.infer<S>,
): WebhookMessage | null {
  const withTitle = input.topicFixed;
  switch (header) {
    case 'push': {
      const p = read(pushPayload);
      const repoName = p.repository.name;
      const tag = tagOf(p.ref);
      if (tag !== null) {
        const url = `${p.repository.html_url}/releases/tag/${encodeURIComponent(tag)}`;
        return {
          topic: repoName,
          content: tagMessage(p.sender.login, tag, url, p.deleted === true),
          eventType: 'push_tags',
        };
      }
      const branch = branchOf(p.ref);
      if (branch === null || branch.startsWith('gh-readonly-queue/')) return null;
      if (!branchWanted(branch, input.options.branches)) return null;
      const content = pushMessage({
        pusher: p.sender.login,
        branch,
        compareUrl: p.compare,
        branchUrl: `${p.repository.html_url}/tree/${encodeURIComponent(branch)}`,
        commits: p.commits.map((c) => ({
          id: c.id,
          message: c.message,
          url: c.url,
          author: c.author?.username || c.author?.name || '',
        })),
        created: p.created === true,
        deleted: p.deleted === true,
        forced: p.forced === true,
        head: p.head_commit ?? undefined,
      });
      return { topic: branchTopic(repoName, branch), content, eventType: 'push_commits' };
    }
    case 'pull_request': {
      const p = read(pullRequestPayload);
      const pr = p.pull_request;
      const item = prRef(pr);
      const topic = itemTopic(p.repository.name, 'PR', pr.number, pr.title);
      const actor = p.sender.login;
      const link = itemLink(item, withTitle);
      let content: string;
      let eventType: string;
      switch (p.action) {
        case 'opened':
        case 'reopened':
          eventType = 'opened_pull_request';
          content = itemMessage({
            actor,
            verb: p.action,
            item,
            withTitle,
            branches: { from: pr.head.ref, to: pr.base.ref },
            body: p.action === 'opened' ? pr.body : null,
            assignees: (pr.assignees ?? []).map((a) => a.login),
          });
          break;
        case 'synchronize':
          eventType = 'updated_pull_request';
          content = `${strong(actor)} pushed new commits to ${link}.`;
          break;
        case 'edited':
          eventType = 'updated_pull_request';
          content = itemMessage({ actor, verb: 'edited', item, withTitle });
          break;
        case 'closed':
          eventType = 'closed_pull_request';
          content = pr.merged
            ? itemMessage({ actor: pr.merged_by?.login ?? actor, verb: 'merged', item, withTitle })
            : itemMessage({ actor, verb: 'closed', item, withTitle });
          break;
        case 'assigned':
        case 'unassigned': {
          eventType = 'assigned_or_unassigned_pull_request';
          const who = strong(p.assignee?.login ?? 'someone');
          content =
            p.action === 'assigned'
              ? `${strong(actor)} assigned ${who} to ${link}.`
              : `${strong(actor)} unassigned ${who} from ${link}.`;
          break;
        }
        case 'review_requested': {
          eventType = 'pull_request_review_requested';
          const reviewer = p.requested_reviewer?.login ?? p.requested_team?.name ?? 'someone';
          content = `${strong(actor)} asked ${strong(reviewer)} to review ${link}.`;
          break;
        }
        case 'ready_for_review':
          eventType = 'pull_request_ready_for_review';
          content = `${strong(actor)} marked ${link} ready for review.`;
          break;
        default:
          if (IGNORED_PR_ACTIONS.has(p.action)) return null;
          throw unsupportedEvent(TOOL, `pull_request:${p.action}`);
      }
      return { topic, content, eventType };
    }
    case 'pull_request_review': {
      const p = read(reviewPayload);
      if (p.action !== 'submitted') return null;
      const pr = p.pull_request;
      const verbs: Record<string, string> = {
        approved: 'approved',
        changes_requested: 'requested changes on',
        commented: 'reviewed',
      };
      const verb = verbs[p.review.state.toLowerCase()] ?? 'reviewed';
      const line = `${strong(p.sender.login)} ${markdownLink(verb, p.review.html_url)} ${itemLink(prRef(pr), withTitle)}`;
      return {
        topic: itemTopic(p.repository.name, 'PR', pr.number, pr.title),
        content: withQuote(p.review.body ? `${line}:` : `${line}.`, p.review.body),
        eventType: 'pull_request_review',
      };
    }
    case 'pull_request_review_comment': {
      const p = read(reviewCommentPayload);
      if (p.action === 'deleted') return null;
      if (p.action === 'edited' && p.changes?.body?.from === p.comment.body) return null;
      const pr = p.pull_request;
      const verb = p.action === 'edited' ? 'edited a review comment' : 'commented';
      return {
        topic: itemTopic(p.repository.name, 'PR', pr.number, pr.title),
        content: commentMessage(
          p.sender.login,
          p.comment.html_url,
          prRef(pr),
          withTitle,
          p.comment.body,
          verb,
        ),
        eventType: 'pull_request_review_comment',
      };
    }
    case 'issues': {
      const p = read(issuesPayload);
      const i = p.issue;
      const item: ItemRef = { kind: 'issue', number: i.number, url: i.html_url, title: i.title };
      const topic = itemTopic(p.repository.name, 'issue', i.number, i.title);
      const actor = p.sender.login;
      const link = itemLink(item, withTitle);
      if (p.action === 'labeled' || p.action === 'unlabeled') {
        const label = codeSpan(p.label?.name ?? '?');
        const content =
          p.action === 'labeled'
            ? `${strong(actor)} added the label ${label} to ${link}.`
            : `${strong(actor)} removed the label ${label} from ${link}.`;
        return { topic, content, eventType: 'issue_labeled_or_unlabeled' };
      }
      let content: string;
      if (p.action === 'opened') {
        content = itemMessage({
          actor,
          verb: 'opened',
          item,
          withTitle,
          body: i.body,
          assignees: (i.assignees ?? []).map((a) => a.login),
        });
      } else if (p.action === 'assigned' || p.action === 'unassigned') {
        const who = strong(p.assignee?.login ?? 'someone');
        content =
          p.action === 'assigned'
            ? `${strong(actor)} assigned ${who} to ${link}.`
            : `${strong(actor)} unassigned ${who} from ${link}.`;
      } else if (p.action === 'closed' && i.state_reason === 'not_planned') {
        content = itemMessage({ actor, verb: 'closed (not planned)', item, withTitle });
      } else if (p.action === 'milestoned' || p.action === 'demilestoned') {
        return null;
      } else {
        content = itemMessage({ actor, verb: p.action.replaceAll('_', ' '), item, withTitle });
      }
      return { topic, content, eventType: 'issues' };
    }
    case 'issue_comment': {
      const p = read(issueCommentPayload);
      if (p.action === 'deleted') return null;
      if (p.action === 'edited' && p.changes?.body?.from === p.comment.body) return null;
      const i = p.issue;
      const kind = i.pull_request === undefined ? 'issue' : 'PR';
      const item: ItemRef = { kind, number: i.number, url: i.html_url, title: i.title };
      const verb = p.action === 'edited' ? 'edited a comment' : 'commented';
      return {
        topic: itemTopic(p.repository.name, kind, i.number, i.title),
        content: commentMessage(
          p.sender.login,
          p.comment.html_url,
          item,
          withTitle,
          p.comment.body,
          verb,
        ),
        eventType: 'issue_comment',
      };
    }
    case 'commit_comment': {
      const p = read(commitCommentPayload);
      const sha = p.comment.commit_id ?? '';
      const commit = markdownLink(
        `commit ${shortSha(sha)}`,
        `${p.repository.html_url}/commit/${sha}`,
      );
      return {
        topic: p.repository.name,
        content: commentMessage(
          p.sender.login,
          p.comment.html_url,
          { text: commit },
          withTitle,
          p.comment.body,
        ),
        eventType: 'commit_comment',
      };
    }
    case 'release': {
      const p = read(releasePayload);
      if (p.action !== 'published') return null;
      const r = p.release;
      return {
        topic: releaseTopic(p.repository.name, r.tag_name, r.name),
        content: releaseMessage(
          p.sender.login,
          'published',
          r.tag_name,
          r.name,
          r.html_url,
          r.body,
        ),
        eventType: 'release',
      };
    }
    case 'fork': {
      const p = read(forkPayload);
      return {
        topic: p.repository.name,
        content: `${strong(p.sender.login)} forked ${strong(p.repository.full_name)} to ${markdownLink(p.forkee.full_name, p.forkee.html_url)}.`,
        eventType: 'fork',
      };
    }
    case 'star': {
      const p = read(starPayload);
      if (p.action !== 'created') return null;
      return {
        topic: p.repository.name,
        content: `${strong(p.sender.login)} starred ${markdownLink(p.repository.full_name, p.repository.html_url)}. ⭐`,
        eventType: 'star',
      };
    }
    case 'check_run': {
      const p = read(checkRunPayload);
      const run = p.check_run;
      if (run.status !== 'completed') return null;
      const outcome =
        CONCLUSIONS[run.conclusion ?? ''] ?? `finished (${run.conclusion ?? 'no conclusion'})`;
      const commit = markdownLink(
        shortSha(run.head_sha),
        `${p.repository.html_url}/commit/${run.head_sha}`,
      );
      return {
        topic: `${p.repository.name} / checks`,
        content: `Check ${markdownLink(run.name, run.html_url)} ${outcome} on ${commit}.`,
        eventType: 'check_run',
      };
    }
    case 'workflow_run': {
      const p = read(workflowRunPayload);
      if (p.action !== 'completed') return null;
      const run = p.workflow_run;
      const outcome =
        CONCLUSIONS[run.conclusion ?? ''] ?? `finished (${run.conclusion ?? 'no conclusion'})`;
      const branch = run.head_branch ?? '';
      const name = `${run.name ?? 'Workflow'} #${run.run_number}`;
      const on = branch ? ` on ${codeSpan(branch)}` : '';
      return {
        topic: branch ? branchTopic(p.repository.name, branch) : p.repository.name,
        content: `Workflow ${markdownLink(name, run.html_url)}${on} ${outcome}.`,
        eventType: 'workflow_run',
      };
    }
    default:
      throw unsupportedEvent(
        TOOL,
        actionOf(input.payload) ? `${header}:${actionOf(input.payload)}` : header,
      );
  }
}

export const github: Integration = {
  name: 'github',
  displayName: TOOL,
  description:
    'Pushes and tags, pull requests and reviews, issues, comments, releases, checks and workflow runs from GitHub or GitHub Enterprise Server.',
  eventTypes: EVENT_TYPES,
  urlOptions: [
    { key: 'branches', label: 'Only pushes to these branches (comma-separated)', kind: 'text' },
    {
      key: 'ignore_private_repositories',
      label: 'Skip events from private repositories',
      kind: 'bool',
    },
  ],
  setup:
    'In the repository (or organization) Settings → Webhooks → Add webhook: paste the URL as the payload URL, choose content type application/json, and pick the events.',
  read: readGitHub,
};
