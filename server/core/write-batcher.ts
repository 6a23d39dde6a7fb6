import { isThenable } from '../db/transaction.js';
import type { TransactionRunner } from './context.js';
import type { DurableCommits } from './durable-commits.js';

interface Job {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit (db/DESIGN.md): writes that arrive in the same event-loop turn
 * run one after another inside one SQLite transaction, each in its own
 * savepoint so a failing one rolls back alone, and commit once. The commit's
 * fsync runs off the event loop (durable-commits.ts): the answers and the
 * events go out once it is on disk, while the next batch already runs.
 */
export class WriteBatcher {
  private pending: Job[] = [];
  private scheduled = false;
  /** Batches committed and the writes they held, since the start (bench/durable-send.ts). */
  readonly stats = { batches: 0, writes: 0 };

  constructor(
    private readonly runner: TransactionRunner,
    private readonly durable: DurableCommits,
    private readonly maxBatch = 256,
  ) {}

  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ run: fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const jobs = this.pending.splice(0, this.maxBatch);
    this.stats.batches += 1;
    this.stats.writes += jobs.length;
    if (this.pending.length > 0) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    let events: ReturnType<TransactionRunner['collect']>['events'];
    try {
      events = this.durable.commitWithoutSync(
        () =>
          this.runner.collect(() => {
            // A write alone needs no savepoint: if it fails, the whole transaction rolls back.
            if (jobs.length === 1) {
              outcomes.push({ ok: true, value: runWrite(jobs[0]!) });
              return;
            }
            for (const job of jobs) {
              try {
                // A nested transaction is a savepoint: its writes and events drop on failure.
                const value = this.runner.transaction(() => runWrite(job));
                outcomes.push({ ok: true, value });
              } catch (error) {
                outcomes.push({ ok: false, error });
              }
            }
          }).events,
      );
    } catch (error) {
      // The commit (or a lone write) failed: nothing was written. The refusal
      // still waits for earlier batches' fsyncs: what it saw was their writes.
      this.durable.afterSync(() => {
        for (const job of jobs) job.reject(error);
      });
      return;
    }
    this.durable.afterSync((syncError) => {
      // Committed, and visible to every reader: the events keep queues in step with it.
      this.runner.deliver(events);
      jobs.forEach((job, i) => {
        const outcome = outcomes[i]!;
        if (syncError !== undefined) job.reject(syncError);
        else if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.error);
      });
    });
  }
}

function runWrite(job: Job): unknown {
  const result = job.run();
  // Its writes would land after this commit, outside the batch's durability.
  if (isThenable(result)) throw new Error('a group-commit write must be synchronous');
  return result;
}
