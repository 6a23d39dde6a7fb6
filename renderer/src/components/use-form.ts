import { useCallback, useRef, useState } from 'react';
import { type ShownError, shownError } from '../api/errors.js';

export interface FormState {
  busy: boolean;
  error: ShownError | null;
  success: string | null;
  /** The error's message when it is about this input field, for that field to show. */
  errorFor(field: string): string | null;
  /** The error when no field of `fields` shows it: the form shows it by its submit button. */
  generalError(fields: readonly string[]): string | null;
  /**
   * Runs `action` (a call plus anything after it), showing its outcome: the
   * message it returns, or the error. Either replaces whatever was shown
   * before, so an old success never stands beside a new error.
   */
  run(action: () => Promise<string | null | undefined>): Promise<boolean>;
  clear(): void;
}

export function useForm(): FormState {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const running = useRef(false);

  const run = useCallback(async (action: () => Promise<string | null | undefined>) => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    setSuccess(null);
    try {
      setSuccess((await action()) ?? null);
      return true;
    } catch (err) {
      setError(shownError(err));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);

  return {
    busy,
    error,
    success,
    run,
    errorFor: (field) => (error && error.field === field ? error.message : null),
    generalError: (fields) =>
      error && (error.field === null || !fields.includes(error.field)) ? error.message : null,
    clear: () => {
      setError(null);
      setSuccess(null);
    },
  };
}
