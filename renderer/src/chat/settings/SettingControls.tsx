import { type ReactNode, useEffect, useId, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/**
 * One personal setting: its value in the state (kept by `user_settings`
 * events, so another tab's change shows here too) and a change that goes to
 * `PATCH /settings`. Until the event confirms it, the control shows the
 * value asked for; a refusal puts the old one back and says why.
 */
export function useSetting<T>(name: string, fallback: T) {
  const api = useZulipApi();
  const stored = useChat((s) => s.settings[name]) as T | undefined;
  const [asked, setAsked] = useState<{ value: T } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The state has caught up (this change's event, or another tab's): it speaks again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the stored value changes
  useEffect(() => setAsked(null), [stored]);
  const change = (value: T) => {
    setAsked({ value });
    setError(null);
    api.call('PATCH', '/settings', { [name]: value }).catch((err: unknown) => {
      setAsked(null);
      setError(errorText(err));
    });
  };
  const value = asked ? asked.value : (stored ?? fallback);
  return { value, change, error };
}

function SettingError({ id, error }: { id: string; error: string | null }) {
  if (!error) return null;
  return (
    <p className="chat-field-error" id={id} role="alert">
      {error}
    </p>
  );
}

/** A checkbox for a boolean setting. */
export function SettingToggle({
  name,
  label,
  hint,
  fallback = false,
}: {
  name: string;
  label: ReactNode;
  hint?: string;
  fallback?: boolean;
}) {
  const { value, change, error } = useSetting<boolean>(name, fallback);
  const id = useId();
  return (
    <div className="settings-toggle" data-setting={name}>
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        onChange={(event) => change(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="chat-field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <SettingError id={`${id}-error`} error={error} />
    </div>
  );
}

/** A drop-down for a setting with a few values (numbers or strings, as Zulip's API has them). */
export function SettingSelect<T extends string | number>({
  name,
  label,
  choices,
  fallback,
}: {
  name: string;
  label: string;
  choices: { value: T; text: string }[];
  fallback: T;
}) {
  const { value, change, error } = useSetting<T>(name, fallback);
  const id = useId();
  return (
    <div className="chat-field settings-select" data-setting={name}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={String(value)}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          const picked = choices.find((c) => String(c.value) === event.target.value);
          if (picked) change(picked.value);
        }}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={String(choice.value)}>
            {choice.text}
          </option>
        ))}
      </select>
      <SettingError id={`${id}-error`} error={error} />
    </div>
  );
}
