import type { ComposeTarget } from '../data/model.js';

/**
 * A request to open the compose box, from a shortcut (`c`, `r`), a message
 * action (quote and reply, forward) or a saved view (a scheduled message to edit).
 */
export interface ComposeRequest {
  /** null keeps the narrow's default target; `'choose'` empties the recipient fields (forwarding). */
  target: ComposeTarget | 'choose' | null;
  /** Text inserted at the cursor (a quote). */
  insert?: string;
  /** Text that replaces what the box holds (a scheduled message taken back for editing). */
  content?: string;
  /** The time a message taken back from the schedule had (Unix seconds): the box offers it again. */
  unscheduledFrom?: number;
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

let pending: ComposeRequest | null = null;

/**
 * For the compose box of the view being navigated to (a scheduled message
 * taken back opens in its conversation): that box takes it when it mounts.
 */
export function requestComposeOnArrival(request: ComposeRequest): void {
  pending = request;
}

/** The request waiting for a newly mounted box, once. */
export function takeArrivalRequest(): ComposeRequest | null {
  const request = pending;
  pending = null;
  return request;
}
