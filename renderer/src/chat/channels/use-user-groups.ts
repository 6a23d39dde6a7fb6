import { useEffect, useState } from 'react';
import { useChat, useZulipApi } from '../data/store-context.js';
import type { UserGroup } from './channel-model.js';

/**
 * The organization's user groups, for group-setting checks: the state's
 * (`realm_user_groups`, kept by events) when the data layer has them, else
 * fetched once (`GET /user_groups`) when a view that needs them opens; null
 * until known.
 */
export function useUserGroups(): Map<number, UserGroup> | null {
  const api = useZulipApi();
  const kept = useChat((s) => s.groups);
  const haveKept = kept !== undefined && kept.size > 0;
  const [fetched, setFetched] = useState<Map<number, UserGroup> | null>(null);
  useEffect(() => {
    if (haveKept) return;
    let live = true;
    api
      .call<{ user_groups: UserGroup[] }>('GET', '/user_groups')
      .then((answer) => {
        if (live) setFetched(new Map(answer.user_groups.map((group) => [group.id, group])));
      })
      .catch(() => {
        // Without groups only system-group names can be checked.
        if (live) setFetched(new Map());
      });
    return () => {
      live = false;
    };
  }, [api, haveKept]);
  return haveKept ? kept : fetched;
}
