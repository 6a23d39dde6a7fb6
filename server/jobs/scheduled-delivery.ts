import type { AppContext } from '../core/context.js';
import { deliverDue } from '../scheduled/index.js';
import { type PeriodicJob, startPeriodicJob } from './periodic.js';

/** A message or reminder goes out at most this late. */
export const DEFAULT_DELIVERY_INTERVAL_MS = 5_000;

/**
 * The job that sends due scheduled messages and reminders. It runs in the server's
 * process and event loop, so a delivery never overlaps an HTTP write.
 */
export function startScheduledDelivery(ctx: AppContext, intervalMs: number): PeriodicJob {
  return startPeriodicJob(
    intervalMs,
    () => deliverDue(ctx),
    // A broken run must not stop later ones; the next tick tries again.
    (err) => ctx.log.error('scheduled message delivery run failed', err),
  );
}
