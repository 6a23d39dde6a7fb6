/**
 * What the forges (Gitea and Forgejo, GitLab, GitHub) have in common: refs,
 * Zulip's topics (one per repository and branch, one per pull request or
 * issue), and Hearth's wording for pushes and for pull requests and issues.
 */
import {
  codeSpan,
  linkTarget,
  markdownLink,
  plainText,
  silenceMentions,
} from '../../markdown/index.js';
import { count, firstLine, strong, withQuote } from './text.js';

/** The all-zero commit id: a ref created (before) or deleted (after). */
export const EMPTY_SHA = '0000000000000000000000000000000000000000';

/** Commits listed in a push message; the rest are counted. */
export const COMMITS_LISTED = 20;

/** `refs/heads/main` → `main`; null for other refs. */
export function branchOf(ref: string): string | null {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

/** `refs/tags/v1.2` → `v1.2`; null for other refs. */
export function tagOf(ref: string): string | null {
  return ref.startsWith('refs/tags/') ? ref.slice('refs/tags/'.length) : null;
}

export const shortSha = (sha: string) => sha.slice(0, 7);

/** Zulip's topic for a branch's pushes: "repo / branch". */
export const branchTopic = (repo: string, branch: string) => `${repo} / ${branch}`;

/** Zulip's topic for one pull request, merge request or issue: "repo / PR #12 Title". */
export const itemTopic = (repo: string, kind: ItemKind, number: number, title: string) =>
  `${repo} / ${kind} #${number} ${title}`;

/** Zulip's topic for a release: "repo / v1.2 Name". */
export const releaseTopic = (repo: string, tag: string, name: string | null | undefined) =>
  name && name !== tag ? `${repo} / ${tag} ${name}` : `${repo} / ${tag}`;

export type ItemKind = 'PR' | 'MR' | 'issue' | 'snippet';

/** A pull request, merge request or issue as a message names it. */
export interface ItemRef {
  kind: ItemKind;
  number: number;
  url: string | null | undefined;
  title: string;
}

/** "[PR #12](url)", or with its title when the topic does not carry it. */
export function itemLink(item: ItemRef, withTitle: boolean): string {
  const text = `${item.kind} #${item.number}${withTitle ? ` ${item.title}` : ''}`;
  return markdownLink(text, item.url);
}

export interface PushedCommit {
  id: string;
  message: string;
  url: string | null | undefined;
  /** The author's name as the forge gives it. */
  author: string;
}

export interface Push {
  pusher: string;
  branch: string;
  /** The forge's page comparing before and after. */
  compareUrl: string | null | undefined;
  /** The branch's page, for a new branch. */
  branchUrl?: string | null;
  commits: readonly PushedCommit[];
  /** Commits pushed, when the forge sends fewer than it counts. */
  totalCommits?: number;
  created?: boolean;
  deleted?: boolean;
  forced?: boolean;
  /** The new head, for a force push. */
  head?: { id: string; url?: string | null };
}

/** One line per commit (short id, first line, and the author when not the pusher). */
function commitLines(push: Push): string[] {
  const lines = push.commits.slice(0, COMMITS_LISTED).map((commit) => {
    const byOther =
      commit.author && commit.author !== push.pusher ? ` (${plainText(commit.author)})` : '';
    return `* ${linked(codeSpan(shortSha(commit.id)), commit.url)} ${silenceMentions(firstLine(commit.message))}${byOther}`;
  });
  const total = Math.max(push.totalCommits ?? 0, push.commits.length);
  if (total > COMMITS_LISTED) lines.push(`* … and ${count(total - COMMITS_LISTED, 'more commit')}`);
  return lines;
}

/** A push to a branch: new, deleted, forced or plain, with its commits. */
export function pushMessage(push: Push): string {
  const who = strong(push.pusher);
  const branch = codeSpan(push.branch);
  if (push.deleted) return `${who} deleted branch ${branch}.`;
  const total = Math.max(push.totalCommits ?? 0, push.commits.length);
  if (push.created) {
    const head = `${who} created branch ${linked(branch, push.branchUrl ?? push.compareUrl)}`;
    if (total === 0) return `${head}.`;
    return `${head} with ${count(total, 'commit')}:\n${commitLines(push).join('\n')}`;
  }
  const target = linked(branch, push.compareUrl);
  if (push.forced) {
    const head = push.head
      ? `, now at ${linked(codeSpan(shortSha(push.head.id)), push.head.url)}`
      : '';
    const line = `${who} force-pushed ${target}${head}`;
    return total === 0 ? `${line}.` : `${line}:\n${commitLines(push).join('\n')}`;
  }
  if (total === 0) return `${who} pushed to ${target} (no new commits).`;
  return `${who} pushed ${count(total, 'commit')} to ${target}:\n${commitLines(push).join('\n')}`;
}

/** Markdown already made safe (a code span) as a link's text, when the URL is a web link. */
function linked(markdown: string, url: string | null | undefined): string {
  const target = linkTarget(url);
  return target ? `[${markdown}](${target})` : markdown;
}

/** A tag pushed or deleted. */
export function tagMessage(pusher: string, tag: string, url: string | null, deleted: boolean) {
  return deleted
    ? `${strong(pusher)} deleted tag ${codeSpan(tag)}.`
    : `${strong(pusher)} pushed tag ${linked(codeSpan(tag), url)}.`;
}

/** A branch or tag created without a push of commits (Gitea's create, GitHub's create). */
export function refCreatedMessage(
  who: string,
  kind: 'branch' | 'tag',
  name: string,
  url: string | null,
) {
  return `${strong(who)} created ${kind} ${linked(codeSpan(name), url)}.`;
}

export function refDeletedMessage(who: string, kind: 'branch' | 'tag', name: string) {
  return `${strong(who)} deleted ${kind} ${codeSpan(name)}.`;
}

export interface ItemEvent {
  actor: string;
  /** "opened", "closed", "merged", … */
  verb: string;
  item: ItemRef;
  withTitle: boolean;
  /** Source and target branches, for a new or reopened pull request. */
  branches?: { from: string; to: string };
  /** The description or comment quoted below. */
  body?: string | null;
  /** Who it was assigned to, when the event says. */
  assignees?: readonly string[];
}

/** "**alice** opened [PR #12](url) `feature` → `main`", with its description quoted. */
export function itemMessage(event: ItemEvent): string {
  let line = `${strong(event.actor)} ${event.verb} ${itemLink(event.item, event.withTitle)}`;
  if (event.branches) {
    line += ` ${codeSpan(event.branches.from)} → ${codeSpan(event.branches.to)}`;
  }
  if (event.assignees && event.assignees.length > 0) {
    line += ` (assigned to ${event.assignees.map(strong).join(', ')})`;
  }
  return withQuote(event.body ? `${line}:` : `${line}.`, event.body);
}

/** "**alice** [commented](url) on [PR #12](url):" with the comment quoted. */
export function commentMessage(
  actor: string,
  commentUrl: string | null | undefined,
  item: ItemRef | { text: string },
  withTitle: boolean,
  body: string | null | undefined,
  verb = 'commented',
): string {
  const target = 'text' in item ? item.text : itemLink(item, withTitle);
  const line = `${strong(actor)} ${markdownLink(verb, commentUrl)} on ${target}`;
  return withQuote(body ? `${line}:` : `${line}.`, body);
}

/** A release published, edited or deleted (by someone, when the tool says who), with its notes quoted. */
export function releaseMessage(
  actor: string | null,
  verb: string,
  tag: string,
  name: string | null | undefined,
  url: string | null | undefined,
  notes: string | null | undefined,
): string {
  const label = name && name !== tag ? `${tag} ${name}` : tag;
  const release = markdownLink(label, url);
  const line =
    actor === null
      ? `Release ${release} was ${verb}`
      : `${strong(actor)} ${verb} release ${release}`;
  return withQuote(notes ? `${line}:` : `${line}.`, notes);
}
