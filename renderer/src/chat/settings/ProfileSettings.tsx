import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { StatusDialog } from '../people/StatusDialog.js';
import { Avatar } from '../ui/Avatar.js';
import { Emoji } from '../ui/Emoji.js';
import { ProfileFieldsForm } from './ProfileFieldsForm.js';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/** Profile: your name, picture, custom profile fields (pronouns among them) and status. */
export function ProfileSettings() {
  return (
    <>
      <NameForm />
      <AvatarSection />
      <StatusSection />
      <ProfileFieldsForm />
    </>
  );
}

function NameForm() {
  const api = useZulipApi();
  const me = useChat((s) => s.users.get(s.ownUserId));
  const locked = useChat(
    (s) =>
      s.realm.settings.realm_name_changes_disabled === true &&
      !(s.users.get(s.ownUserId)?.is_admin ?? false),
  );
  const [name, setName] = useState(me?.full_name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const id = useId();
  // Another tab's change shows here too, unless this one is being typed.
  const saidName = useRef(me?.full_name ?? '');
  useEffect(() => {
    const current = me?.full_name ?? '';
    setName((typed) => (typed === saidName.current ? current : typed));
    saidName.current = current;
  }, [me?.full_name]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    api
      .call('PATCH', '/settings', { full_name: name.trim() })
      .then(() => setSaved(true))
      .catch((err: unknown) => setError(errorText(err)));
  };
  return (
    <form className="settings-block" onSubmit={submit}>
      <div className="chat-field">
        <label htmlFor={id}>Name</label>
        <div className="settings-inline">
          <input
            id={id}
            type="text"
            value={name}
            disabled={locked}
            maxLength={60}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : locked ? `${id}-hint` : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setSaved(false);
            }}
          />
          <button
            type="submit"
            className="button"
            disabled={locked || name.trim() === (me?.full_name ?? '')}
          >
            Save
          </button>
        </div>
        {locked && (
          <p className="chat-field-hint" id={`${id}-hint`}>
            Name changes are disabled in this organization. Contact an administrator to change your
            name.
          </p>
        )}
        {error && (
          <p className="chat-field-error" id={`${id}-error`} role="alert">
            {error}
          </p>
        )}
        {saved && (
          <p className="settings-saved" role="status">
            Saved.
          </p>
        )}
      </div>
    </form>
  );
}

function AvatarSection() {
  const api = useZulipApi();
  const me = useChat((s) => s.users.get(s.ownUserId));
  const locked = useChat(
    (s) =>
      s.realm.settings.realm_avatar_changes_disabled === true &&
      !(s.users.get(s.ownUserId)?.is_admin ?? false),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const run = (request: Promise<unknown>) => {
    setBusy(true);
    setError(null);
    request
      .catch((err: unknown) => setError(errorText(err)))
      .finally(() => {
        setBusy(false);
        if (input.current) input.current.value = '';
      });
  };
  const uploaded = me?.avatar_source === 'U';
  return (
    <section className="settings-block settings-avatar" aria-labelledby="settings-avatar-title">
      <h3 id="settings-avatar-title">Profile picture</h3>
      <div className="settings-avatar-row">
        <Avatar url={me?.avatar_url ?? null} name={me?.full_name ?? '?'} size={96} />
        <div className="settings-avatar-actions">
          <label className={`button${locked || busy ? ' disabled' : ''}`}>
            {busy ? 'Uploading…' : 'Upload new picture'}
            <input
              ref={input}
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              className="visually-hidden"
              disabled={locked || busy}
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) run(api.postFile('/users/me/avatar', file));
              }}
            />
          </label>
          {uploaded && !locked && (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => run(api.call('DELETE', '/users/me/avatar'))}
            >
              Delete picture
            </button>
          )}
        </div>
      </div>
      {error && (
        <p className="chat-form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function StatusSection() {
  const api = useZulipApi();
  const status = useChat((s) => s.userStatus.get(s.ownUserId));
  const realmEmoji = useChat((s) => s.realm.emoji);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Shown as asked until the user_status event confirms it (or a refusal undoes it).
  const stored = status?.away === true;
  const [askedAway, setAskedAway] = useState<boolean | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the stored value changes
  useEffect(() => setAskedAway(null), [stored]);
  const away = askedAway ?? stored;
  const awayId = useId();
  const hasStatus = Boolean(status?.status_text || status?.emoji_name);
  return (
    <section className="settings-block" aria-labelledby="settings-status-title">
      <h3 id="settings-status-title">Status</h3>
      <div className="settings-status-row">
        <span className="settings-status-now">
          {hasStatus ? (
            <>
              {status?.emoji_name && (
                <Emoji
                  emoji={{
                    emoji_name: status.emoji_name,
                    emoji_code: status.emoji_code ?? '',
                    reaction_type: status.reaction_type,
                  }}
                  realmEmoji={realmEmoji}
                />
              )}{' '}
              {status?.status_text}
            </>
          ) : (
            <span className="settings-muted">No status set</span>
          )}
        </span>
        <button type="button" className="button" onClick={() => setEditing(true)}>
          {hasStatus ? 'Change status' : 'Set status'}
        </button>
      </div>
      <div className="settings-toggle">
        <input
          id={awayId}
          type="checkbox"
          checked={away}
          onChange={(event) => {
            setError(null);
            setAskedAway(event.target.checked);
            api
              .call('POST', '/users/me/status', { away: event.target.checked })
              .catch((err: unknown) => {
                setAskedAway(null);
                setError(errorText(err));
              });
          }}
        />
        <label htmlFor={awayId}>Away (others see you as away)</label>
      </div>
      {error && (
        <p className="chat-form-error" role="alert">
          {error}
        </p>
      )}
      {editing && <StatusDialog onClose={() => setEditing(false)} />}
    </section>
  );
}
