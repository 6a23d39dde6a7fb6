import { useId, useMemo, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { type ChannelKind, type CreationRights, channelNameTaken } from './channel-model.js';

/** Zulip's limits (Stream.MAX_NAME_LENGTH, MAX_DESCRIPTION_LENGTH). */
const NAME_MAX = 60;
const DESCRIPTION_MAX = 1024;

const KINDS: { kind: ChannelKind; label: string; hint: string }[] = [
  { kind: 'public', label: 'Public', hint: 'Members of the organization can join and read it.' },
  { kind: 'private', label: 'Private', hint: 'Only subscribers can read it; they add others.' },
  {
    kind: 'web_public',
    label: 'Web-public',
    hint: 'Anyone on the internet can read it without logging in.',
  },
];

type Errors = { name?: string; description?: string; form?: string };

/**
 * Where a refusal belongs: next to the field the server names in
 * `var_name`; Hearth (like Zulip) names none for a bad channel name or
 * description, so its message says which, and that places it too.
 */
function placeError(err: unknown): Errors {
  if (!(err instanceof ApiError)) return { form: String(err) };
  const name = err.varName ?? '';
  if (name.includes('description')) return { description: err.message };
  if (name === 'subscriptions' || name.includes('name')) return { name: err.message };
  if (!name && /description/i.test(err.message)) return { description: err.message };
  if (!name && /channel name/i.test(err.message)) return { name: err.message };
  return { form: err.message };
}

/**
 * Creates a channel and subscribes you (`POST /users/me/subscriptions` with
 * a new name), offering only the kinds the organization lets you create.
 */
export function CreateChannelForm({
  rights,
  onCreated,
  onCancel,
}: {
  rights: CreationRights;
  onCreated: (name: string) => void;
  onCancel: () => void;
}) {
  const api = useZulipApi();
  const channels = useChat((s) => s.channels);
  const subscriptions = useChat((s) => s.subscriptions);
  const allowed = useMemo(() => KINDS.filter(({ kind }) => rights[kind]), [rights]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState<ChannelKind>(allowed[0]?.kind ?? 'public');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), nameError: useId(), description: useId(), descError: useId() };

  const submit = async () => {
    const trimmed = name.trim();
    if (!trimmed) return setErrors({ name: 'Choose a name for the new channel.' });
    // Subscribing by name joins an existing channel instead of creating one.
    if (channelNameTaken({ channels, subscriptions }, trimmed)) {
      return setErrors({ name: 'A channel with this name already exists.' });
    }
    setBusy(true);
    setErrors({});
    try {
      await api.call('POST', '/users/me/subscriptions', {
        subscriptions: [{ name: trimmed, description: description.trim() }],
        invite_only: kind === 'private',
        is_web_public: kind === 'web_public' ? true : undefined,
      });
      onCreated(trimmed);
    } catch (err) {
      setErrors(placeError(err));
      setBusy(false);
    }
  };

  return (
    <form
      className="create-channel"
      aria-label="Create a channel"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="chat-field">
        <label htmlFor={ids.name}>Channel name</label>
        <input
          id={ids.name}
          data-autofocus
          type="text"
          value={name}
          maxLength={NAME_MAX}
          required
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? ids.nameError : undefined}
          onChange={(event) => {
            setName(event.target.value);
            // A refusal is about the name it was given, not the one being typed.
            setErrors(({ name: _stale, ...rest }) => rest);
          }}
        />
        {errors.name && (
          <p className="chat-field-error" id={ids.nameError}>
            {errors.name}
          </p>
        )}
      </div>
      <div className="chat-field">
        <label htmlFor={ids.description}>Description</label>
        <textarea
          id={ids.description}
          value={description}
          maxLength={DESCRIPTION_MAX}
          rows={3}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? ids.descError : undefined}
          onChange={(event) => {
            setDescription(event.target.value);
            setErrors(({ description: _stale, ...rest }) => rest);
          }}
        />
        {errors.description && (
          <p className="chat-field-error" id={ids.descError}>
            {errors.description}
          </p>
        )}
      </div>
      <fieldset className="chat-field create-channel-kinds">
        <legend>Who can access the channel?</legend>
        {KINDS.map(({ kind: option, label, hint }) => {
          // Web-public needs the organization to allow spectators; otherwise it is not a choice.
          if (option === 'web_public' && !rights.web_public) return null;
          const permitted = rights[option];
          return (
            <label key={option} className={`radio${permitted ? '' : ' disabled'}`}>
              <input
                type="radio"
                name="channel-kind"
                value={option}
                checked={kind === option}
                disabled={!permitted}
                onChange={() => setKind(option)}
              />
              <span>
                <strong>{label}</strong>
                <span className="hint">
                  {permitted
                    ? hint
                    : `You are not allowed to create ${label.toLowerCase()} channels in this organization.`}
                </span>
              </span>
            </label>
          );
        })}
      </fieldset>
      {errors.form && (
        <p className="chat-form-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="chat-dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          Create
        </button>
      </div>
    </form>
  );
}
