import type { UserGroup } from '../../data/model.js';

const cache = new WeakMap<Map<number, UserGroup>, { userId: number; ids: Set<number> }>();

/**
 * The groups a user belongs to, directly or through subgroups (a mention of
 * any of them is a mention of the user, as the server's `mentioned` flag says).
 * Cached per groups map, which the store replaces when a group changes.
 */
export function groupsOf(groups: Map<number, UserGroup> | undefined, userId: number): Set<number> {
  if (!groups) return EMPTY;
  const cached = cache.get(groups);
  if (cached && cached.userId === userId) return cached.ids;
  const ids = new Set<number>();
  for (const group of groups.values()) if (group.members.includes(userId)) ids.add(group.id);
  // A group whose subgroup holds the user holds the user too; repeat until nothing changes.
  let grew = true;
  while (grew) {
    grew = false;
    for (const group of groups.values()) {
      if (ids.has(group.id)) continue;
      if (group.direct_subgroup_ids.some((sub) => ids.has(sub))) {
        ids.add(group.id);
        grew = true;
      }
    }
  }
  cache.set(groups, { userId, ids });
  return ids;
}

const EMPTY = new Set<number>();
