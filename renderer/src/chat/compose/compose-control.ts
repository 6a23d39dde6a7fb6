import type { ComposeTarget } from '../data/model.js';

/** A request to open the compose box, from a shortcut (`c`, `r`) or a message action (quote and reply). */
export interface ComposeRequest {
  /** null keeps the narrow's default target. */
  target: ComposeTarget | null;
  /** Text inserted at the cursor (a quote). */
  insert?: string;
}

type Listener = (request: ComposeRequest) => void;
const listeners = new Set<Listener>();

/** Opens the compose box (and focuses it) with `request`. */
export function requestCompose(request: ComposeRequest): void {
  for (const listener of listeners) listener(request);
}

/** The compose box listens here; returns the unsubscribe. */
export function onComposeRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
