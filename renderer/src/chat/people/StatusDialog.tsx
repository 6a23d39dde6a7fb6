import { useId, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { Dialog } from '../ui/Dialog.js';
import { Emoji } from '../ui/Emoji.js';
import {
  STATUS_EMOJI,
  STATUS_PRESETS,
  STATUS_TEXT_MAX,
  type StatusEmoji,
} from './status-choices.js';

type FieldErrors = { status_text?: string; emoji?: string; form?: string };

/** Where the server's refusal belongs: next to the field it names, else under the form. */
function placeError(err: unknown): FieldErrors {
  if (!(err instanceof ApiError)) return { form: String(err) };
  if (err.varName === 'status_text') return { status_text: err.message };
  if (err.varName?.startsWith('emoji') || err.varName === 'reaction_type') {
    return { emoji: err.message };
  }
  return { form: err.message };
}

/**
 * Your status (`POST /users/me/status`): text and an emoji, Zulip's
 * suggestions one click away, and clearing it. The list updates from the
 * `user_status` event, not from here.
 */
export function StatusDialog({ onClose }: { onClose: () => void }) {
  const api = useZulipApi();
  const ownUserId = useChat((s) => s.ownUserId);
  const current = useChat((s) => s.userStatus.get(s.ownUserId));
  const realmEmoji = useChat((s) => s.realm.emoji);
  const [text, setText] = useState(current?.status_text ?? '');
  const [emoji, setEmoji] = useState<StatusEmoji & { reaction_type?: string }>({
    emoji_name: current?.emoji_name ?? '',
    emoji_code: current?.emoji_code ?? '',
    reaction_type: current?.reaction_type,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const textId = useId();
  const textErrorId = useId();
  const emojiErrorId = useId();

  const save = async (status_text: string, chosen: typeof emoji) => {
    setBusy(true);
    setErrors({});
    try {
      await api.call('POST', '/users/me/status', {
        status_text,
        emoji_name: chosen.emoji_name,
        emoji_code: chosen.emoji_name ? chosen.emoji_code : undefined,
        reaction_type: chosen.emoji_name ? (chosen.reaction_type ?? 'unicode_emoji') : undefined,
      });
      onClose();
    } catch (err) {
      setErrors(placeError(err));
      setBusy(false);
    }
  };

  const hasStatus = Boolean(current?.status_text || current?.emoji_name);

  return (
    <Dialog title="Set status" onClose={onClose} className="status-dialog">
      <form
        data-user-id={ownUserId}
        onSubmit={(event) => {
          event.preventDefault();
          void save(text.trim(), emoji);
        }}
      >
        <div className="chat-field">
          <label htmlFor={textId}>Status message</label>
          <div className="status-input-row">
            <Emoji emoji={emoji} realmEmoji={realmEmoji} className="emoji status-input-emoji" />
            <input
              id={textId}
              data-autofocus
              type="text"
              value={text}
              maxLength={STATUS_TEXT_MAX}
              placeholder="Your status"
              aria-invalid={errors.status_text ? true : undefined}
              aria-describedby={errors.status_text ? textErrorId : undefined}
              onChange={(event) => {
                setText(event.target.value);
                setErrors(({ status_text: _stale, ...rest }) => rest);
              }}
            />
          </div>
          {errors.status_text && (
            <p className="chat-field-error" id={textErrorId}>
              {errors.status_text}
            </p>
          )}
        </div>
        <fieldset
          className="chat-field status-emoji-choices"
          aria-describedby={errors.emoji ? emojiErrorId : undefined}
        >
          <legend>Emoji</legend>
          <div className="emoji-grid">
            <label className="emoji-choice" title="No emoji">
              <input
                type="radio"
                name="status-emoji"
                checked={!emoji.emoji_name}
                onChange={() => setEmoji({ emoji_name: '', emoji_code: '' })}
              />
              <span aria-hidden="true">∅</span>
              <span className="visually-hidden">No emoji</span>
            </label>
            {STATUS_EMOJI.map((choice) => (
              <label
                className="emoji-choice"
                key={choice.emoji_name}
                title={`:${choice.emoji_name}:`}
              >
                <input
                  type="radio"
                  name="status-emoji"
                  checked={emoji.emoji_name === choice.emoji_name}
                  onChange={() => setEmoji({ ...choice, reaction_type: 'unicode_emoji' })}
                />
                <Emoji emoji={choice} realmEmoji={realmEmoji} />
              </label>
            ))}
          </div>
          {errors.emoji && (
            <p className="chat-field-error" id={emojiErrorId}>
              {errors.emoji}
            </p>
          )}
        </fieldset>
        <div className="status-presets">
          <h3>Suggestions</h3>
          <ul>
            {STATUS_PRESETS.map((preset) => (
              <li key={preset.status_text}>
                <button
                  type="button"
                  className="status-preset"
                  onClick={() => {
                    setText(preset.status_text);
                    setEmoji({ ...preset, reaction_type: 'unicode_emoji' });
                  }}
                >
                  <Emoji emoji={preset} realmEmoji={realmEmoji} /> {preset.status_text}
                </button>
              </li>
            ))}
          </ul>
        </div>
        {errors.form && (
          <p className="chat-form-error" role="alert">
            {errors.form}
          </p>
        )}
        <div className="chat-dialog-actions">
          {hasStatus && (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void save('', { emoji_name: '', emoji_code: '' })}
            >
              Clear status
            </button>
          )}
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
