/**
 * only_events / exclude_events patterns read as Python's fnmatch reads them
 * (Zulip's check_send_webhook_message), and `branches` as Zulip's
 * is_branch_name_notifiable: exact names, comma-separated, spaces trimmed.
 */
import { describe, expect, it } from 'vitest';
import { branchWanted, eventWanted } from '../../server/integrations/toolkit/filters.js';

describe('event patterns', () => {
  const only = (patterns: string[], event: string) => eventWanted(event, { onlyEvents: patterns });

  it('* spans anything, slashes and colons included; ? is one character', () => {
    expect(only(['pull_request:*'], 'pull_request:opened')).toBe(true);
    expect(only(['*'], 'a/b:c d')).toBe(true);
    expect(only(['issue?'], 'issues')).toBe(true);
    expect(only(['issue?'], 'issue')).toBe(false);
    expect(only(['Note Hook *'], 'Note Hook MergeRequest')).toBe(true);
  });

  it('[set] and [!set]; everything else is literal', () => {
    expect(only(['[pq]ush'], 'push')).toBe(true);
    expect(only(['[!p]ush'], 'push')).toBe(false);
    expect(only(['push.commits'], 'push_commits')).toBe(false);
    expect(only(['a+b'], 'a+b')).toBe(true);
    expect(only(['(x)'], '(x)')).toBe(true);
    expect(only(['[unclosed'], '[unclosed')).toBe(true);
  });

  it('the whole name must match, case-sensitively', () => {
    expect(only(['push'], 'push_commits')).toBe(false);
    expect(only(['Push'], 'push')).toBe(false);
  });

  it('exclude_events wins over only_events; no event type passes every filter', () => {
    expect(eventWanted('push', { onlyEvents: ['*'], excludeEvents: ['push'] })).toBe(false);
    expect(eventWanted(null, { onlyEvents: ['nothing'] })).toBe(true);
    expect(eventWanted('push', {})).toBe(true);
    expect(eventWanted('push', { onlyEvents: [] })).toBe(false);
  });
});

describe('branches', () => {
  it('exact names, comma-separated, spaces trimmed', () => {
    expect(branchWanted('main', undefined)).toBe(true);
    expect(branchWanted('main', 'dev, main ')).toBe(true);
    expect(branchWanted('mai', 'main')).toBe(false);
    expect(branchWanted('feature/x', 'feature/x,main')).toBe(true);
  });
});
