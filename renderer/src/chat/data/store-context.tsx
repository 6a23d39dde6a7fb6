import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ChatActions, ChatState, ChatStore } from './model.js';

const StoreContext = createContext<ChatStore | null>(null);

export const ChatStoreProvider = StoreContext.Provider;

export function useChatStore(): ChatStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useChatStore outside <ChatStoreProvider>');
  return store;
}

/**
 * A part of the chat state; the view re-renders when that part changes
 * (the store replaces what changes and keeps what does not, so identity
 * comparison is enough).
 */
export function useChat<T>(select: (state: ChatState) => T): T {
  const store = useChatStore();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

export const useChatActions = (): ChatActions => useChatStore().actions;
export const useZulipApi = () => useChatStore().api;
