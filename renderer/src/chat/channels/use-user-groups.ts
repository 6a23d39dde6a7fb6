import { useEffect, useState } from 'react';
import { useZulipApi } from '../data/store-context.js';
import type { UserGroup } from './channel-model.js';

/**
 * The organization's user groups (`GET /user_groups`), fetched when a view
 * that checks a group setting opens; null until they arrive. The chat's
 * state does not keep groups, and these checks only need a recent copy.
 */
export function useUserGroups(): Map<number, UserGroup> | null {
  const api = useZulipApi();
  const [groups, setGroups] = useState<Map<number, UserGroup> | null>(null);
  useEffect(() => {
    let live = true;
    api
      .call<{ user_groups: UserGroup[] }>('GET', '/user_groups')
      .then((answer) => {
        if (live) setGroups(new Map(answer.user_groups.map((group) => [group.id, group])));
      })
      .catch(() => {
        // Without groups only system-group names can be checked.
        if (live) setGroups(new Map());
      });
    return () => {
      live = false;
    };
  }, [api]);
  return groups;
}
