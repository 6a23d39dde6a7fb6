/**
 * Gitea and Forgejo (a fork of Gitea; it sends the same payloads and both
 * headers). The event is the X-Gitea-Event (X-Forgejo-Event) header; the
 * payloads are Gitea's api/structs (PushPayload, CreatePayload,
 * IssuePayload, PullRequestPayload, IssueCommentPayload, ReleasePayload).
 */
import { z } from 'zod';
import { markdownLink } from '../../markdown/index.js';
import { missingEventHeader, unsupportedEvent } from '../toolkit/errors.js';
import { branchWanted } from '../toolkit/filters.js';
import {
  branchOf,
  branchTopic,
  commentMessage,
  EMPTY_SHA,
  type ItemRef,
  itemMessage,
  itemTopic,
  pushMessage,
  refCreatedMessage,
  refDeletedMessage,
  releaseMessage,
  releaseTopic,
} from '../toolkit/git.js';
import { readPayload } from '../toolkit/payload.js';
import { strong, withQuote } from '../toolkit/text.js';
import {
  type Integration,
  ignore,
  post,
  type WebhookInput,
  type WebhookReading,
} from '../types.js';

const user = z.object({
  login: z.string().optional(),
  username: z.string().optional(),
});
type User = z.infer<typeof user>;
const nameOf = (u: User | null | undefined) => u?.login || u?.username || 'Someone';

const repository = z.object({
  name: z.string(),
  full_name: z.string().optional(),
  html_url: z.string(),
});

const pushPayload = z.object({
  ref: z.string(),
  before: z.string(),
  after: z.string(),
  compare_url: z.string().nullish(),
  commits: z
    .array(
      z.object({
        id: z.string(),
        message: z.string(),
        url: z.string().nullish(),
        author: z.object({ name: z.string().nullish(), username: z.string().nullish() }).nullish(),
      }),
    )
    .nullish(),
  total_commits: z.number().nullish(),
  repository,
  pusher: user.nullish(),
  sender: user.nullish(),
});

const refPayload = z.object({
  ref: z.string(),
  ref_type: z.string(),
  repository,
  sender: user.nullish(),
});

const issue = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string().nullish(),
  user: user.nullish(),
  assignees: z.array(user).nullish(),
});

const issuePayload = z.object({ action: z.string(), issue, repository, sender: user.nullish() });

const pullRequest = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string().nullish(),
  user: user.nullish(),
  merged: z.boolean().nullish(),
  merged_by: user.nullish(),
  head: z.object({ ref: z.string() }).nullish(),
  base: z.object({ ref: z.string() }).nullish(),
  assignees: z.array(user).nullish(),
});

const pullRequestPayload = z.object({
  action: z.string(),
  pull_request: pullRequest,
  requested_reviewer: user.nullish(),
  review: z.object({ type: z.string().nullish(), content: z.string().nullish() }).nullish(),
  repository,
  sender: user.nullish(),
});

const commentPayload = z.object({
  action: z.string(),
  issue,
  comment: z.object({
    html_url: z.string().nullish(),
    body: z.string().nullish(),
    user: user.nullish(),
  }),
  is_pull: z.boolean().nullish(),
  repository,
  sender: user.nullish(),
});

const releasePayload = z.object({
  action: z.string(),
  release: z.object({
    tag_name: z.string(),
    name: z.string().nullish(),
    body: z.string().nullish(),
    html_url: z.string().nullish(),
    draft: z.boolean().nullish(),
  }),
  repository,
  sender: user.nullish(),
});

const forkPayload = z.object({
  forkee: z.object({ full_name: z.string(), html_url: z.string().nullish() }),
  repository,
  sender: user.nullish(),
});

const EVENT_TYPES = [
  'push',
  'create',
  'delete',
  'issues',
  'issue_comment',
  'pull_request',
  'pull_request_approved',
  'pull_request_rejected',
  'pull_request_comment',
  'release',
  'fork',
] as const;

/** The Gitea family's reading of a delivery, under the tool's own name. */
function readForge(tool: string, headers: readonly string[], input: WebhookInput): WebhookReading {
  let event: string | undefined;
  for (const name of headers) event ??= input.header(name);
  if (event === undefined) throw missingEventHeader(headers[0]!);
  const read = <S extends z.ZodType>(schema: S) => readPayload(tool, schema, input.payload);
  const withTitle = input.topicFixed;

  switch (event) {
    case 'push': {
      const p = read(pushPayload);
      const branch = branchOf(p.ref);
      if (branch === null) return ignore('a tag push (the create event reports it)');
      if (p.after === EMPTY_SHA) return ignore('a branch deleted (the delete event reports it)');
      const commits = p.commits ?? [];
      if (p.before === EMPTY_SHA && commits.length === 0) {
        return ignore('a new branch without commits (the create event reports it)');
      }
      if (!branchWanted(branch, input.options.branches))
        return ignore(`branch ${branch} is not in branches`);
      const content = pushMessage({
        pusher: nameOf(p.pusher ?? p.sender),
        branch,
        compareUrl: p.compare_url,
        commits: commits.map((c) => ({
          id: c.id,
          message: c.message,
          url: c.url,
          author: c.author?.username || c.author?.name || '',
        })),
        totalCommits: p.total_commits ?? undefined,
      });
      return post({ topic: branchTopic(p.repository.name, branch), content, eventType: event });
    }
    case 'create':
    case 'delete': {
      const p = read(refPayload);
      const kind = p.ref_type === 'tag' ? 'tag' : 'branch';
      const who = nameOf(p.sender);
      const url = `${p.repository.html_url}/src/${kind}/${encodeURIComponent(p.ref)}`;
      const content =
        event === 'create'
          ? refCreatedMessage(who, kind, p.ref, url)
          : refDeletedMessage(who, kind, p.ref);
      const topic = kind === 'branch' ? branchTopic(p.repository.name, p.ref) : p.repository.name;
      return post({ topic, content, eventType: event });
    }
    case 'issues': {
      const p = read(issuePayload);
      const item: ItemRef = {
        kind: 'issue',
        number: p.issue.number,
        url: p.issue.html_url,
        title: p.issue.title,
      };
      const actor = nameOf(p.sender);
      const topic = itemTopic(p.repository.name, 'issue', p.issue.number, p.issue.title);
      const verbs: Record<string, string> = {
        closed: 'closed',
        reopened: 'reopened',
        edited: 'edited',
      };
      let content: string;
      if (p.action === 'opened') {
        const assignees = (p.issue.assignees ?? []).map(nameOf);
        content = itemMessage({
          actor,
          verb: 'opened',
          item,
          withTitle,
          body: p.issue.body,
          assignees,
        });
      } else if (p.action === 'assigned') {
        const assignees = (p.issue.assignees ?? []).map(nameOf);
        content = `${strong(actor)} assigned ${assignees.map(strong).join(', ') || 'someone'} to ${itemRefText(item, withTitle)}.`;
      } else if (verbs[p.action]) {
        content = itemMessage({ actor, verb: verbs[p.action]!, item, withTitle });
      } else {
        return ignore(`issue ${p.action}`);
      }
      return post({ topic, content, eventType: event });
    }
    case 'pull_request':
    case 'pull_request_approved':
    case 'pull_request_rejected':
    case 'pull_request_comment': {
      const p = read(pullRequestPayload);
      const pr = p.pull_request;
      const item: ItemRef = { kind: 'PR', number: pr.number, url: pr.html_url, title: pr.title };
      const actor = nameOf(p.sender);
      const topic = itemTopic(p.repository.name, 'PR', pr.number, pr.title);
      const content = pullRequestContent(event, p, item, actor, withTitle);
      return content === null
        ? ignore(`pull request ${p.action}`)
        : post({ topic, content, eventType: event });
    }
    case 'issue_comment': {
      const p = read(commentPayload);
      if (p.action === 'deleted') return ignore('a comment deleted');
      const kind = p.is_pull ? 'PR' : 'issue';
      const item: ItemRef = {
        kind,
        number: p.issue.number,
        url: p.issue.html_url,
        title: p.issue.title,
      };
      const verb = p.action === 'edited' ? 'edited a comment' : 'commented';
      const content = commentMessage(
        nameOf(p.comment.user ?? p.sender),
        p.comment.html_url,
        item,
        withTitle,
        p.comment.body,
        verb,
      );
      return post({
        topic: itemTopic(p.repository.name, kind, p.issue.number, p.issue.title),
        content,
        eventType: event,
      });
    }
    case 'release': {
      const p = read(releasePayload);
      const r = p.release;
      if (r.draft) return ignore('a draft release');
      const verbs: Record<string, string> = { published: 'published', deleted: 'deleted' };
      const verb = verbs[p.action];
      if (!verb) return ignore(`release ${p.action}`);
      const content = releaseMessage(
        nameOf(p.sender),
        verb,
        r.tag_name,
        r.name,
        r.html_url,
        verb === 'published' ? r.body : null,
      );
      return post({
        topic: releaseTopic(p.repository.name, r.tag_name, r.name),
        content,
        eventType: event,
      });
    }
    case 'fork': {
      const p = read(forkPayload);
      const content = `${strong(nameOf(p.sender))} forked ${strong(p.repository.name)} to ${markdownLink(p.forkee.full_name, p.forkee.html_url)}.`;
      return post({ topic: p.repository.name, content, eventType: event });
    }
    default:
      throw unsupportedEvent(tool, event);
  }
}

const itemRefText = (item: ItemRef, withTitle: boolean) =>
  markdownLink(`${item.kind} #${item.number}${withTitle ? ` ${item.title}` : ''}`, item.url);

function pullRequestContent(
  event: string,
  p: z.infer<typeof pullRequestPayload>,
  item: ItemRef,
  actor: string,
  withTitle: boolean,
): string | null {
  const pr = p.pull_request;
  const link = itemRefText(item, withTitle);
  if (event === 'pull_request_approved')
    return withQuote(
      `${strong(actor)} approved ${link}${p.review?.content ? ':' : '.'}`,
      p.review?.content,
    );
  if (event === 'pull_request_rejected')
    return withQuote(
      `${strong(actor)} requested changes on ${link}${p.review?.content ? ':' : '.'}`,
      p.review?.content,
    );
  if (event === 'pull_request_comment')
    return withQuote(
      `${strong(actor)} reviewed ${link}${p.review?.content ? ':' : '.'}`,
      p.review?.content,
    );
  const branches = pr.head && pr.base ? { from: pr.head.ref, to: pr.base.ref } : undefined;
  switch (p.action) {
    case 'opened':
    case 'reopened':
      return itemMessage({
        actor,
        verb: p.action,
        item,
        withTitle,
        branches,
        body: p.action === 'opened' ? pr.body : null,
        assignees: (pr.assignees ?? []).map(nameOf),
      });
    case 'closed':
      return pr.merged
        ? itemMessage({ actor: nameOf(pr.merged_by ?? p.sender), verb: 'merged', item, withTitle })
        : itemMessage({ actor, verb: 'closed', item, withTitle });
    case 'edited':
      return itemMessage({ actor, verb: 'edited', item, withTitle });
    case 'synchronized':
      return `${strong(actor)} pushed new commits to ${link}.`;
    case 'assigned': {
      const assignees = (pr.assignees ?? []).map(nameOf);
      return `${strong(actor)} assigned ${assignees.map(strong).join(', ') || 'someone'} to ${link}.`;
    }
    case 'review_requested':
      return `${strong(actor)} asked ${strong(nameOf(p.requested_reviewer))} to review ${link}.`;
    default:
      return null;
  }
}

const SETUP =
  'In the repository (or organization) settings, Webhooks → Add webhook → Gitea: paste the URL, POST with content type application/json, and pick the events.';

export const gitea: Integration = {
  name: 'gitea',
  displayName: 'Gitea',
  description:
    'Pushes, branches and tags, issues, pull requests and reviews, comments and releases from a Gitea server.',
  eventTypes: EVENT_TYPES,
  urlOptions: [
    { key: 'branches', label: 'Only pushes to these branches (comma-separated)', kind: 'text' },
  ],
  setup: SETUP,
  read: (input) => readForge('Gitea', ['X-Gitea-Event', 'X-Gogs-Event'], input),
};

export const forgejo: Integration = {
  name: 'forgejo',
  displayName: 'Forgejo',
  description:
    'Pushes, branches and tags, issues, pull requests and reviews, comments and releases from a Forgejo server.',
  eventTypes: EVENT_TYPES,
  urlOptions: gitea.urlOptions,
  setup: SETUP.replace('→ Gitea', '→ Forgejo'),
  read: (input) => readForge('Forgejo', ['X-Forgejo-Event', 'X-Gitea-Event'], input),
};
