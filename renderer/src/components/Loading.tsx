import type { ReactNode } from 'react';
import type { Loaded } from '../api/use-load.js';

/** Shows `children(value)` once loaded, else a loading line or the error. */
export function Loading<T>({
  loaded,
  children,
}: {
  loaded: Loaded<T>;
  children: (value: T) => ReactNode;
}) {
  if (loaded.state === 'loading') return <p className="muted">Loading…</p>;
  if (loaded.state === 'failed') {
    return (
      <p className="alert alert-error" role="alert">
        {loaded.error.message}
      </p>
    );
  }
  return <>{children(loaded.value)}</>;
}
