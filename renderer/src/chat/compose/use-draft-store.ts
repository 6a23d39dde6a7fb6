import { useMemo } from 'react';
import { useChat, useChatStore, useZulipApi } from '../data/store-context.js';
import { type DraftStore, localDrafts, serverDrafts } from './drafts.js';

/**
 * Where this user's drafts live: on the server when
 * `enable_drafts_synchronization` is on, else in this browser. The compose
 * box and the Drafts view share the choice.
 */
export function useDraftStore(): DraftStore {
  const api = useZulipApi();
  const store = useChatStore();
  const ownUserId = useChat((s) => s.ownUserId);
  const synced = useChat((s) => s.settings.enable_drafts_synchronization === true);
  return useMemo(
    () =>
      synced
        ? serverDrafts(api, () => store.getState().drafts)
        : localDrafts(typeof localStorage === 'undefined' ? null : localStorage, ownUserId),
    [synced, api, store, ownUserId],
  );
}
