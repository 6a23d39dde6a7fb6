import { useId, useState } from 'react';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { ROLES } from '../../labels.js';

/**
 * A person's or bot's role, saved on change. A refusal ("the only owner")
 * shows under the select, which returns to the role the server kept.
 */
export function RoleSelect(props: {
  userId: number;
  name: string;
  role: number;
  onSaved(): void;
  /** Called as a change starts, so the page can drop an older message. */
  onAttempt?(): void;
}) {
  const api = useApi();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(props.role);
  return (
    <div className="inline-field">
      <label htmlFor={id} className="visually-hidden">
        Role of {props.name}
      </label>
      <select
        id={id}
        value={shown}
        disabled={busy}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={async (e) => {
          const role = Number(e.target.value);
          setShown(role);
          setError(null);
          props.onAttempt?.();
          setBusy(true);
          try {
            await api.users.update.mutate({ userId: props.userId, role });
            props.onSaved();
          } catch (err) {
            setShown(props.role);
            setError(shownError(err).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        {ROLES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
