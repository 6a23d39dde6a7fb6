import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { startPeriodicJob } from '../../server/jobs/periodic.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('runs once per interval, first after one interval', async () => {
  const run = vi.fn();
  const job = startPeriodicJob(1000, run, () => {});
  await vi.advanceTimersByTimeAsync(999);
  expect(run).toHaveBeenCalledTimes(0);
  await vi.advanceTimersByTimeAsync(1);
  expect(run).toHaveBeenCalledTimes(1);
  await vi.advanceTimersByTimeAsync(3000);
  expect(run).toHaveBeenCalledTimes(4);
  await job.stop();
  await vi.advanceTimersByTimeAsync(5000);
  expect(run).toHaveBeenCalledTimes(4);
});

it('skips ticks while a run is still in progress, and stop() waits for it', async () => {
  let finish!: () => void;
  let finished = false;
  const run = vi.fn(
    () =>
      new Promise<void>((resolve) => {
        finish = () => {
          finished = true;
          resolve();
        };
      }),
  );
  const job = startPeriodicJob(100, run, () => {});
  await vi.advanceTimersByTimeAsync(550);
  expect(run).toHaveBeenCalledTimes(1);

  let stopped = false;
  const stopping = job.stop().then(() => {
    stopped = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  expect(stopped).toBe(false);
  finish();
  await stopping;
  expect(finished).toBe(true);
  await vi.advanceTimersByTimeAsync(1000);
  expect(run).toHaveBeenCalledTimes(1);
});

it('reports a failed run and keeps going', async () => {
  const errors: unknown[] = [];
  let calls = 0;
  const job = startPeriodicJob(
    10,
    async () => {
      calls++;
      if (calls === 1) throw new Error('first run fails');
    },
    (err) => errors.push(err),
  );
  await vi.advanceTimersByTimeAsync(30);
  expect(calls).toBe(3);
  expect(errors).toHaveLength(1);
  expect((errors[0] as Error).message).toBe('first run fails');
  await job.stop();
});

it('reports a synchronous throw too', async () => {
  const onError = vi.fn();
  const job = startPeriodicJob(
    10,
    () => {
      throw new Error('sync');
    },
    onError,
  );
  await vi.advanceTimersByTimeAsync(10);
  expect(onError).toHaveBeenCalledTimes(1);
  await job.stop();
});

it('refuses an interval that is not a positive number', () => {
  for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
    expect(() =>
      startPeriodicJob(
        bad,
        () => {},
        () => {},
      ),
    ).toThrow(RangeError);
  }
});

it('does not keep the process alive', () => {
  const spy = vi.spyOn(globalThis, 'setInterval');
  const job = startPeriodicJob(
    1000,
    () => {},
    () => {},
  );
  const timer = spy.mock.results[0]!.value as NodeJS.Timeout;
  expect(timer.hasRef()).toBe(false);
  spy.mockRestore();
  void job.stop();
});
