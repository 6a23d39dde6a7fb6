/**
 * Failures of one-click actions (a menu's "Mute channel") that have no
 * form to show them next to: announced by the host that ActionErrorHost
 * renders. Forms show their own errors beside their fields instead.
 */
type Listener = (message: string) => void;
const listeners = new Set<Listener>();

export function reportActionError(message: string): void {
  for (const listener of listeners) listener(message);
}

export function onActionError(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** "Could not mute #general: <server's reason>" from what failed and why. */
export function actionFailure(what: string, err: unknown): string {
  const reason = err instanceof Error ? err.message : String(err);
  return `Could not ${what}: ${reason}`;
}
