import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import type { ProfileData, ProfileField } from '../people/profile-fields.js';
import { loadFieldDefinitions } from '../people/UserCard.js';
import {
  profileDataChanges,
  profileFormValues,
  profileInputOf,
  selectOptions,
} from './settings-model.js';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/**
 * "About you": the organization's custom profile fields (pronouns among
 * them), each with the control its type needs; saving sends only what
 * changed (`PATCH`/`DELETE /users/me/profile_data`).
 */
export function ProfileFieldsForm() {
  const api = useZulipApi();
  const me = useChat((s) => s.users.get(s.ownUserId));
  const users = useChat((s) => s.users);
  const [fields, setFields] = useState<ProfileField[] | null>(null);
  const [saved, setSaved] = useState<Record<number, string>>({});
  const [values, setValues] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const ownUserId = me?.user_id;
  const baseId = useId();

  useEffect(() => {
    if (ownUserId === undefined) return;
    let live = true;
    Promise.all([
      loadFieldDefinitions(api),
      api.call<{ user: { profile_data?: ProfileData } }>('GET', `/users/${ownUserId}`, {
        include_custom_profile_fields: true,
      }),
    ])
      .then(([defs, answer]) => {
        if (!live) return;
        const sorted = [...defs].sort((a, b) => a.order - b.order);
        const start = profileFormValues(sorted, answer.user.profile_data);
        setFields(sorted);
        setSaved(start);
        setValues(start);
      })
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [api, ownUserId]);

  if (!fields || fields.length === 0) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setDone(false);
    const { update, remove } = profileDataChanges(fields, saved, values);
    try {
      if (update.length > 0) {
        await api.call('PATCH', '/users/me/profile_data', { data: JSON.stringify(update) });
      }
      if (remove.length > 0) {
        await api.call('DELETE', '/users/me/profile_data', { data: JSON.stringify(remove) });
      }
      setSaved(values);
      setDone(true);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const people = [...users.values()]
    .filter((u) => u.is_active && !u.is_bot)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));

  return (
    <form
      className="settings-block"
      aria-labelledby={`${baseId}-title`}
      onSubmit={(event) => void submit(event)}
    >
      <h3 id={`${baseId}-title`}>About you</h3>
      {fields.map((field) => {
        const id = `${baseId}-${field.id}`;
        const value = values[field.id] ?? '';
        const set = (next: string) => {
          setValues((all) => ({ ...all, [field.id]: next }));
          setDone(false);
        };
        const hint = (field as { hint?: string }).hint;
        const described = hint ? `${id}-hint` : undefined;
        let control: ReactNode;
        switch (profileInputOf(field)) {
          case 'textarea':
            control = (
              <textarea
                id={id}
                rows={3}
                value={value}
                aria-describedby={described}
                onChange={(e) => set(e.target.value)}
              />
            );
            break;
          case 'select':
            control = (
              <select
                id={id}
                value={value}
                aria-describedby={described}
                onChange={(e) => set(e.target.value)}
              >
                <option value="">—</option>
                {selectOptions(field).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.text}
                  </option>
                ))}
              </select>
            );
            break;
          case 'users': {
            let picked: number | '' = '';
            try {
              const ids = JSON.parse(value || '[]') as number[];
              picked = ids[0] ?? '';
            } catch {
              picked = '';
            }
            control = (
              <select
                id={id}
                value={String(picked)}
                aria-describedby={described}
                onChange={(e) =>
                  set(e.target.value ? JSON.stringify([Number(e.target.value)]) : '')
                }
              >
                <option value="">—</option>
                {people.map((u) => (
                  <option key={u.user_id} value={u.user_id}>
                    {u.full_name}
                  </option>
                ))}
              </select>
            );
            break;
          }
          default: {
            const kind = profileInputOf(field);
            control = (
              <input
                id={id}
                type={kind === 'date' ? 'date' : kind === 'url' ? 'url' : 'text'}
                value={value}
                aria-describedby={described}
                onChange={(e) => set(e.target.value)}
              />
            );
          }
        }
        return (
          <div className="chat-field" key={field.id}>
            <label htmlFor={id}>{field.name}</label>
            {control}
            {hint && (
              <p className="chat-field-hint" id={`${id}-hint`}>
                {hint}
              </p>
            )}
          </div>
        );
      })}
      {error && (
        <p className="chat-form-error" role="alert">
          {error}
        </p>
      )}
      {done && (
        <p className="settings-saved" role="status">
          Saved.
        </p>
      )}
      <div className="settings-actions">
        <button type="submit" className="button primary">
          Save profile
        </button>
      </div>
    </form>
  );
}
