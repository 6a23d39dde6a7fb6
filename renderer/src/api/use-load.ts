import { useCallback, useEffect, useState } from 'react';
import { type ShownError, shownError } from './errors.js';

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'failed'; error: ShownError }
  | { state: 'ready'; value: T };

/**
 * Runs `load` on mount (and when `deps` change); `reload()` runs it again and
 * keeps showing the previous value meanwhile, so a table does not flash.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what `load` depends on
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && setResult({ state: 'ready', value }),
      (error: unknown) => current && setResult({ state: 'failed', error: shownError(error) }),
    );
    return () => {
      current = false;
    };
  }, [generation, ...deps]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return [result, reload] as const;
}
