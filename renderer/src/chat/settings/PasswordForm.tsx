import { type FormEvent, useId, useState } from 'react';
import { PASSWORD_RULE_HINT } from '../../../../server/shared/password-rule.js';
import { ApiError } from '../data/api.js';
import { useZulipApi } from '../data/store-context.js';

type FieldErrors = { old?: string; new?: string; form?: string };

/**
 * Where the server's refusal belongs: a wrong (or too often wrong) current
 * password under that field, a weak new one under the new one.
 */
function placeError(err: unknown): FieldErrors {
  if (!(err instanceof ApiError)) return { form: String(err) };
  if (err.message === 'Wrong password!' || err.message.startsWith("You're making too many")) {
    return { old: err.message };
  }
  if (err.message.includes('too weak')) return { new: err.message };
  return { form: err.message };
}

/**
 * Your password (`PATCH /settings` with `old_password` and `new_password`),
 * in the Account section of the settings: the rule every password meets
 * shown under the new one, the server's refusal under the field it is about.
 */
export function PasswordForm() {
  const api = useZulipApi();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const oldId = useId();
  const newId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setDone(false);
    try {
      await api.call('PATCH', '/settings', {
        old_password: oldPassword,
        new_password: newPassword,
      });
      setDone(true);
      setOldPassword('');
      setNewPassword('');
    } catch (err) {
      setErrors(placeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="password-form"
      aria-label="Change password"
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <div className="chat-field">
        <label htmlFor={oldId}>Current password</label>
        <input
          id={oldId}
          type="password"
          autoComplete="current-password"
          value={oldPassword}
          aria-invalid={errors.old ? true : undefined}
          aria-describedby={errors.old ? `${oldId}-error` : undefined}
          onChange={(event) => setOldPassword(event.target.value)}
        />
        {errors.old && (
          <p className="chat-field-error" id={`${oldId}-error`} role="alert">
            {errors.old}
          </p>
        )}
      </div>
      <div className="chat-field">
        <label htmlFor={newId}>New password</label>
        <input
          id={newId}
          type="password"
          autoComplete="new-password"
          value={newPassword}
          aria-invalid={errors.new ? true : undefined}
          aria-describedby={`${errors.new ? `${newId}-error ` : ''}${newId}-hint`}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        {errors.new && (
          <p className="chat-field-error" id={`${newId}-error`} role="alert">
            {errors.new}
          </p>
        )}
        <p className="chat-field-hint" id={`${newId}-hint`}>
          {PASSWORD_RULE_HINT}
        </p>
      </div>
      {errors.form && (
        <p className="chat-form-error" role="alert">
          {errors.form}
        </p>
      )}
      {done && (
        <p className="settings-saved" role="status">
          Password changed. Use the new one the next time you log in.
        </p>
      )}
      <div className="settings-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}
