import type { AppContext } from './context.js';

interface Job {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit (db/DESIGN.md): writes that arrive in the same event-loop turn
 * run one after another inside one SQLite transaction, each in its own
 * savepoint so a failing one rolls back alone, and commit once. Their events
 * go out after that commit, as with any transaction.
 */
export class WriteBatcher {
  private pending: Job[] = [];
  private scheduled = false;

  constructor(
    private readonly transaction: AppContext['transaction'],
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
    if (this.pending.length > 0) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.transaction(() => {
        for (const job of jobs) {
          try {
            // A nested transaction is a savepoint: its writes and events drop on failure.
            outcomes.push({ ok: true, value: this.transaction(() => job.run()) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing was written.
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}
