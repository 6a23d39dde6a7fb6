/**
 * What a URL's filters let through: Zulip's `only_events` and
 * `exclude_events` (lists of shell-style patterns, as Python's fnmatch reads
 * them) and the git integrations' `branches`.
 */

const patterns = new Map<string, RegExp>();

/**
 * fnmatch's patterns: `*` any run (slashes and colons included), `?` one
 * character, `[abc]` / `[!abc]` a set; everything else literal. Path-glob
 * libraries give `*` and `/` other meanings, so this small translation is ours.
 */
function patternRegExp(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (re) return re;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        source += '\\[';
        continue;
      }
      let set = pattern.slice(i + 1, end);
      const negated = set.startsWith('!');
      if (negated) set = set.slice(1);
      source += `[${negated ? '^' : ''}${set.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else source += c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  re = new RegExp(`^${source}$`, 's');
  if (patterns.size < 1000) patterns.set(pattern, re);
  return re;
}

export interface EventFilters {
  onlyEvents?: readonly string[];
  excludeEvents?: readonly string[];
}

/** Whether an event of this type is posted under the URL's `only_events` / `exclude_events`. */
export function eventWanted(eventType: string | null, filters: EventFilters): boolean {
  if (eventType === null) return true;
  const { onlyEvents, excludeEvents } = filters;
  if (onlyEvents && !onlyEvents.some((p) => patternRegExp(p).test(eventType))) return false;
  if (excludeEvents?.some((p) => patternRegExp(p).test(eventType))) return false;
  return true;
}

/** Whether a branch is among the URL's comma-separated `branches` (all branches without it). */
export function branchWanted(branch: string, branches: string | undefined): boolean {
  if (branches === undefined) return true;
  return branches.split(',').some((name) => name.trim() === branch);
}
