import { useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { Avatar } from '../ui/Avatar.js';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/** Muted users: whom you muted (their messages hidden, DMs silent), each with Unmute. */
export function MutedUsersSettings() {
  const api = useZulipApi();
  const muted = useChat((s) => s.mutedUserIds);
  const users = useChat((s) => s.users);
  const [error, setError] = useState<string | null>(null);
  const people = [...muted]
    .map((id) => ({ id, user: users.get(id) }))
    .sort((a, b) => (a.user?.full_name ?? '').localeCompare(b.user?.full_name ?? ''));
  return (
    <section className="settings-block" aria-labelledby="settings-muted-title">
      <h3 id="settings-muted-title" className="visually-hidden">
        Muted users
      </h3>
      <p className="settings-value">
        Messages from muted users are hidden, and they do not notify you. Muting is private.
      </p>
      {people.length === 0 ? (
        <p className="settings-muted">You have not muted anyone.</p>
      ) : (
        <ul className="settings-list">
          {people.map(({ id, user }) => (
            <li key={id} className="settings-list-row" data-user-id={id}>
              <Avatar url={user?.avatar_url ?? null} name={user?.full_name ?? '?'} size={28} />
              <span className="settings-list-name">{user?.full_name ?? `User ${id}`}</span>
              <button
                type="button"
                className="button small"
                onClick={() => {
                  setError(null);
                  api
                    .call('DELETE', `/users/me/muted_users/${id}`)
                    .catch((err: unknown) => setError(errorText(err)));
                }}
              >
                Unmute
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="chat-form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
