import { useSyncExternalStore } from 'react';

/**
 * Which message is being edited in place in the feed (Zulip edits a
 * message's text where it stands, not in a dialog). One at a time: starting
 * another edit ends the first. A tiny store of its own, so only the two rows
 * concerned re-render.
 */
let editingId: number | null = null;
const listeners = new Set<() => void>();

function set(id: number | null): void {
  if (editingId === id) return;
  editingId = id;
  for (const listener of listeners) listener();
}

export const startInlineEdit = (messageId: number): void => set(messageId);

/** Ends the edit of `messageId` (if it is still the one being edited). */
export function stopInlineEdit(messageId: number): void {
  if (editingId === messageId) set(null);
}

export const inlineEditingId = (): number | null => editingId;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether this message is being edited in place. */
export function useInlineEditing(messageId: number): boolean {
  return useSyncExternalStore(
    subscribe,
    () => editingId === messageId,
    () => false,
  );
}
