type Listener = (userId: number, anchor: HTMLElement | null) => void;
const listeners = new Set<Listener>();

/** Shows a user's card (from a sender's name or avatar, a mention, the user list). */
export function openUserCard(userId: number, anchor: HTMLElement | null = null): void {
  for (const listener of listeners) listener(userId, anchor);
}

export function onUserCardRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
