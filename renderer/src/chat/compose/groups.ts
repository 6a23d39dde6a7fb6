import { useEffect, useState } from 'react';
import type { ZulipApi } from '../data/api.js';
import type { UserGroup } from '../data/model.js';
import { useChat, useZulipApi } from '../data/store-context.js';

const EMPTY: ReadonlyMap<number, UserGroup> = new Map();
const loads = new WeakMap<ZulipApi, Promise<Map<number, UserGroup>>>();

/**
 * The user groups, for stores that do not keep `groups` from register:
 * `GET /user_groups`, once per API client (a failure is retried next time).
 */
export function fetchGroups(api: ZulipApi): Promise<Map<number, UserGroup>> {
  let load = loads.get(api);
  if (!load) {
    load = api
      .call<{ user_groups: UserGroup[] }>('GET', '/user_groups')
      .then((answer) => new Map(answer.user_groups.map((g) => [g.id, g])))
      .catch((err: unknown) => {
        loads.delete(api);
        throw err;
      });
    loads.set(api, load);
  }
  return load;
}

/** The store's groups when it keeps them, else those fetched once. */
export function useGroups(wanted = true): ReadonlyMap<number, UserGroup> {
  const api = useZulipApi();
  const kept = useChat((s) => s.groups);
  const [fetched, setFetched] = useState<ReadonlyMap<number, UserGroup> | null>(null);
  useEffect(() => {
    if (kept || !wanted || fetched) return;
    let live = true;
    fetchGroups(api).then(
      (groups) => live && setFetched(groups),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [kept, wanted, fetched, api]);
  return kept ?? fetched ?? EMPTY;
}
