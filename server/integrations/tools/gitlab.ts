/**
 * GitLab (self-managed or gitlab.com). The event is the X-Gitlab-Event
 * header ("Push Hook", "Merge Request Hook", ...); as in Zulip, events with
 * actions are refined with them ("Merge Request Hook open", "Note Hook
 * Issue"), which is what only_events and exclude_events match. Payloads:
 * GitLab's "Webhook events" reference.
 */
import { z } from 'zod';
import { codeSpan, markdownLink } from '../../markdown/index.js';
import { missingEventHeader, unsupportedEvent } from '../toolkit/errors.js';
import { branchWanted } from '../toolkit/filters.js';
import {
  branchOf,
  branchTopic,
  commentMessage,
  EMPTY_SHA,
  type ItemKind,
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
import { count, duration, strong } from '../toolkit/text.js';
import {
  type Integration,
  ignore,
  post,
  type WebhookInput,
  type WebhookReading,
} from '../types.js';

const TOOL = 'GitLab';

const user = z.object({ name: z.string(), username: z.string().nullish() });
const project = z.object({ name: z.string(), web_url: z.string() });

const pushPayload = z.object({
  ref: z.string(),
  before: z.string(),
  after: z.string(),
  user_name: z.string(),
  project,
  commits: z
    .array(
      z.object({
        id: z.string(),
        message: z.string(),
        url: z.string().nullish(),
        author: z.object({ name: z.string().nullish() }).nullish(),
      }),
    )
    .default([]),
  total_commits_count: z.number().nullish(),
});

const mergeRequestPayload = z.object({
  user,
  project,
  object_attributes: z.object({
    iid: z.number(),
    title: z.string(),
    description: z.string().nullish(),
    url: z.string().nullish(),
    source_branch: z.string().nullish(),
    target_branch: z.string().nullish(),
    action: z.string().nullish(),
    oldrev: z.string().nullish(),
  }),
  assignees: z.array(user).nullish(),
  changes: z.record(z.string(), z.unknown()).nullish(),
});

const issuePayload = z.object({
  user,
  project,
  object_attributes: z.object({
    iid: z.number(),
    title: z.string(),
    description: z.string().nullish(),
    url: z.string().nullish(),
    action: z.string().nullish(),
  }),
  assignees: z.array(user).nullish(),
  changes: z.record(z.string(), z.unknown()).nullish(),
});

const notePayload = z.object({
  user,
  project,
  object_attributes: z.object({
    note: z.string(),
    noteable_type: z.string(),
    url: z.string().nullish(),
  }),
  merge_request: z
    .object({ iid: z.number(), title: z.string(), url: z.string().nullish() })
    .nullish(),
  issue: z.object({ iid: z.number(), title: z.string(), url: z.string().nullish() }).nullish(),
  snippet: z.object({ id: z.number(), title: z.string() }).nullish(),
  commit: z.object({ id: z.string(), url: z.string().nullish() }).nullish(),
});

const pipelinePayload = z.object({
  object_attributes: z.object({
    id: z.number(),
    ref: z.string(),
    tag: z.boolean().nullish(),
    status: z.string(),
    duration: z.number().nullish(),
    url: z.string().nullish(),
  }),
  user: user.nullish(),
  project,
  builds: z
    .array(z.object({ name: z.string(), stage: z.string().nullish(), status: z.string() }))
    .nullish(),
});

const releasePayload = z.object({
  action: z.string(),
  tag: z.string(),
  name: z.string().nullish(),
  url: z.string().nullish(),
  description: z.string().nullish(),
  project,
});

const wikiPayload = z.object({
  user,
  project,
  object_attributes: z.object({ title: z.string(), url: z.string().nullish(), action: z.string() }),
});

/** Pipelines end in these; the states on the way (pending, running, ...) are not posted. */
const FINISHED: Record<string, string> = {
  success: '✅ passed',
  failed: '❌ failed',
  canceled: 'was canceled',
  skipped: 'was skipped',
};

const MR_VERBS: Record<string, string> = {
  open: 'opened',
  reopen: 'reopened',
  close: 'closed',
  merge: 'merged',
  approved: 'approved',
  unapproved: 'withdrew approval of',
};

const ISSUE_VERBS: Record<string, string> = { open: 'opened', reopen: 'reopened', close: 'closed' };

const EVENT_TYPES = [
  'Push Hook',
  'Tag Push Hook',
  ...['open', 'reopen', 'update', 'close', 'merge', 'approved', 'unapproved'].map(
    (a) => `Merge Request Hook ${a}`,
  ),
  ...['open', 'reopen', 'update', 'close'].flatMap((a) => [
    `Issue Hook ${a}`,
    `Confidential Issue Hook ${a}`,
  ]),
  ...['Commit', 'MergeRequest', 'Issue', 'Snippet'].flatMap((t) => [
    `Note Hook ${t}`,
    `Confidential Note Hook ${t}`,
  ]),
  'Pipeline Hook',
  ...['create', 'update', 'delete'].map((a) => `Release Hook ${a}`),
  ...['create', 'update', 'delete'].map((a) => `Wiki Page Hook ${a}`),
];

function readGitLab(input: WebhookInput): WebhookReading {
  const header = input.header('X-Gitlab-Event');
  if (header === undefined) throw missingEventHeader('X-Gitlab-Event');
  const read = <S extends z.ZodType>(schema: S) => readPayload(TOOL, schema, input.payload);
  const withTitle = input.topicFixed;

  switch (header) {
    case 'Push Hook': {
      const p = read(pushPayload);
      const branch = branchOf(p.ref);
      if (branch === null) throw unsupportedEvent(TOOL, header);
      if (!branchWanted(branch, input.options.branches))
        return ignore(`branch ${branch} is not in branches`);
      const web = p.project.web_url;
      const content = pushMessage({
        pusher: p.user_name,
        branch,
        compareUrl: `${web}/-/compare/${p.before}...${p.after}`,
        branchUrl: `${web}/-/tree/${encodeURIComponent(branch)}`,
        commits: p.commits.map((c) => ({
          id: c.id,
          message: c.message,
          url: c.url,
          author: c.author?.name ?? '',
        })),
        totalCommits: p.total_commits_count ?? undefined,
        created: p.before === EMPTY_SHA,
        deleted: p.after === EMPTY_SHA,
      });
      return post({ topic: branchTopic(p.project.name, branch), content, eventType: header });
    }
    case 'Tag Push Hook': {
      const p = read(pushPayload);
      const tag = tagOf(p.ref) ?? p.ref;
      const deleted = p.after === EMPTY_SHA;
      const url = `${p.project.web_url}/-/tags/${encodeURIComponent(tag)}`;
      return post({
        topic: p.project.name,
        content: tagMessage(p.user_name, tag, url, deleted),
        eventType: header,
      });
    }
    case 'Merge Request Hook': {
      const p = read(mergeRequestPayload);
      const mr = p.object_attributes;
      const action = mr.action ?? 'update';
      const eventType = `${header} ${action}`;
      const item: ItemRef = { kind: 'MR', number: mr.iid, url: mr.url, title: mr.title };
      const topic = itemTopic(p.project.name, 'MR', mr.iid, mr.title);
      const actor = p.user.name;
      let content: string;
      if (action === 'open' || action === 'reopen') {
        content = itemMessage({
          actor,
          verb: MR_VERBS[action]!,
          item,
          withTitle,
          branches:
            mr.source_branch && mr.target_branch
              ? { from: mr.source_branch, to: mr.target_branch }
              : undefined,
          body: action === 'open' ? mr.description : null,
          assignees: (p.assignees ?? []).map((a) => a.name),
        });
      } else if (action === 'update') {
        if (mr.oldrev)
          content = `${strong(actor)} pushed new commits to ${itemLink(item, withTitle)}.`;
        else if (p.changes && ('title' in p.changes || 'description' in p.changes)) {
          content = itemMessage({ actor, verb: 'edited', item, withTitle });
        } else return ignore('a merge request update without commits, title or description');
      } else if (MR_VERBS[action]) {
        content = itemMessage({ actor, verb: MR_VERBS[action]!, item, withTitle });
      } else {
        return ignore(`merge request ${action}`);
      }
      return post({ topic, content, eventType });
    }
    case 'Issue Hook':
    case 'Confidential Issue Hook': {
      const p = read(issuePayload);
      const issue = p.object_attributes;
      const action = issue.action ?? 'update';
      const eventType = `${header} ${action}`;
      const item: ItemRef = {
        kind: 'issue',
        number: issue.iid,
        url: issue.url,
        title: issue.title,
      };
      const actor = p.user.name;
      let content: string;
      if (action === 'open') {
        content = itemMessage({
          actor,
          verb: 'opened',
          item,
          withTitle,
          body: issue.description,
          assignees: (p.assignees ?? []).map((a) => a.name),
        });
      } else if (ISSUE_VERBS[action]) {
        content = itemMessage({ actor, verb: ISSUE_VERBS[action]!, item, withTitle });
      } else if (action === 'update') {
        if (
          !p.changes ||
          !('title' in p.changes || 'description' in p.changes || 'assignees' in p.changes)
        ) {
          return ignore('an issue update without title, description or assignees');
        }
        const assignees = (p.assignees ?? []).map((a) => a.name);
        content =
          'assignees' in p.changes
            ? `${strong(actor)} assigned ${assignees.map(strong).join(', ') || 'nobody'} to ${itemLink(item, withTitle)}.`
            : itemMessage({ actor, verb: 'edited', item, withTitle });
      } else {
        return ignore(`issue ${action}`);
      }
      return post({
        topic: itemTopic(p.project.name, 'issue', issue.iid, issue.title),
        content,
        eventType,
      });
    }
    case 'Note Hook':
    case 'Confidential Note Hook': {
      const p = read(notePayload);
      const note = p.object_attributes;
      const eventType = `${header} ${note.noteable_type}`;
      const repo = p.project.name;
      const actor = p.user.name;
      const noteOn = (
        kind: ItemKind,
        number: number,
        title: string,
        url: string | null | undefined,
      ) => ({
        topic: itemTopic(repo, kind, number, title),
        content: commentMessage(
          actor,
          note.url,
          { kind, number, url, title },
          withTitle,
          note.note,
        ),
        eventType,
      });
      switch (note.noteable_type) {
        case 'MergeRequest':
          if (!p.merge_request) break;
          return post(
            noteOn('MR', p.merge_request.iid, p.merge_request.title, p.merge_request.url),
          );
        case 'Issue':
          if (!p.issue) break;
          return post(noteOn('issue', p.issue.iid, p.issue.title, p.issue.url));
        case 'Snippet':
          if (!p.snippet) break;
          return post(
            noteOn(
              'snippet',
              p.snippet.id,
              p.snippet.title,
              `${p.project.web_url}/-/snippets/${p.snippet.id}`,
            ),
          );
        case 'Commit': {
          if (!p.commit) break;
          const target = { text: markdownLink(`commit ${shortSha(p.commit.id)}`, p.commit.url) };
          return post({
            topic: repo,
            content: commentMessage(actor, note.url, target, withTitle, note.note),
            eventType,
          });
        }
        default:
          throw unsupportedEvent(TOOL, eventType);
      }
      throw unsupportedEvent(TOOL, eventType);
    }
    case 'Pipeline Hook': {
      const p = read(pipelinePayload);
      const pipeline = p.object_attributes;
      const outcome = FINISHED[pipeline.status];
      if (!outcome) return ignore(`a pipeline ${pipeline.status}`);
      const url = pipeline.url ?? `${p.project.web_url}/-/pipelines/${pipeline.id}`;
      const ref = pipeline.tag ? `tag ${codeSpan(pipeline.ref)}` : codeSpan(pipeline.ref);
      const took = pipeline.duration ? ` in ${duration(pipeline.duration)}` : '';
      let content = `Pipeline ${markdownLink(`#${pipeline.id}`, url)} for ${ref} ${outcome}${took}.`;
      const failed = (p.builds ?? []).filter((b) => b.status === 'failed');
      if (failed.length > 0) {
        content += `\n${count(failed.length, 'failed job')}: ${failed.map((b) => codeSpan(b.name)).join(', ')}`;
      }
      return post({ topic: branchTopic(p.project.name, pipeline.ref), content, eventType: header });
    }
    case 'Job Hook':
    case 'Build Hook':
      return ignore('jobs are reported by their pipeline');
    case 'Release Hook': {
      const p = read(releasePayload);
      // GitLab's release hook does not say who acted.
      const verbs: Record<string, string> = {
        create: 'published',
        delete: 'deleted',
        update: 'edited',
      };
      const verb = verbs[p.action];
      if (!verb) return ignore(`release ${p.action}`);
      const notes = p.action === 'create' ? p.description : null;
      const content = releaseMessage(null, verb, p.tag, p.name, p.url, notes);
      return post({
        topic: releaseTopic(p.project.name, p.tag, p.name),
        content,
        eventType: `${header} ${p.action}`,
      });
    }
    case 'Wiki Page Hook': {
      const p = read(wikiPayload);
      const page = p.object_attributes;
      const verbs: Record<string, string> = {
        create: 'created',
        update: 'edited',
        delete: 'deleted',
      };
      const content = `${strong(p.user.name)} ${verbs[page.action] ?? page.action} the wiki page ${markdownLink(page.title, page.url)}.`;
      return post({ topic: p.project.name, content, eventType: `${header} ${page.action}` });
    }
    default:
      throw unsupportedEvent(TOOL, header);
  }
}

export const gitlab: Integration = {
  name: 'gitlab',
  displayName: TOOL,
  description:
    'Pushes and tags, merge requests, issues, comments, pipelines, releases and wiki pages from GitLab.',
  eventTypes: EVENT_TYPES,
  urlOptions: [
    { key: 'branches', label: 'Only pushes to these branches (comma-separated)', kind: 'text' },
  ],
  setup:
    'In the project (or group) Settings → Webhooks → Add new webhook: paste the URL and tick the triggers (push, tag push, comments, issues, merge requests, pipelines, releases).',
  read: readGitLab,
};
