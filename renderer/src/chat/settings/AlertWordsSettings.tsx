import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { newAlertWords } from './settings-model.js';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));
const NO_WORDS: readonly string[] = [];

/**
 * Alert words: messages that contain one are marked (`has_alert_word`),
 * notify you as a mention does, and fill the Alerted view.
 */
export function AlertWordsSettings() {
  const api = useZulipApi();
  const words = useChat((s) => s.alertWords ?? NO_WORDS);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const add = (event: FormEvent) => {
    event.preventDefault();
    const adding = newAlertWords(typed, words);
    if (adding.length === 0) {
      setError(typed.trim() ? 'You already have that alert word.' : 'Type a word or phrase.');
      return;
    }
    setError(null);
    const submitted = typed;
    api
      .call('POST', '/users/me/alert_words', { alert_words: JSON.stringify(adding) })
      // Cleared only if it still holds what was added: the next word may be typed already.
      .then(() => setTyped((current) => (current === submitted ? '' : current)))
      .catch((err: unknown) => setError(errorText(err)));
  };
  const remove = (word: string) => {
    setError(null);
    api
      .call('DELETE', '/users/me/alert_words', { alert_words: JSON.stringify([word]) })
      .catch((err: unknown) => setError(errorText(err)));
  };

  return (
    <section className="settings-block" aria-labelledby="settings-alert-title">
      <h3 id="settings-alert-title" className="visually-hidden">
        Alert words
      </h3>
      <p className="settings-value">
        Messages containing an alert word notify you as a mention does.
      </p>
      <form className="chat-field" onSubmit={add}>
        <label htmlFor={id}>New alert word</label>
        <div className="settings-inline">
          <input
            id={id}
            type="text"
            value={typed}
            maxLength={100}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setTyped(event.target.value)}
          />
          <button type="submit" className="button">
            Add
          </button>
        </div>
        {error && (
          <p className="chat-field-error" id={`${id}-error`} role="alert">
            {error}
          </p>
        )}
      </form>
      {words.length === 0 ? (
        <p className="settings-muted">You have no alert words.</p>
      ) : (
        <ul className="settings-list" aria-label="Your alert words">
          {[...words]
            .sort((a, b) => a.localeCompare(b))
            .map((word) => (
              <li key={word} className="settings-list-row">
                <span className="settings-list-name">{word}</span>
                <button
                  type="button"
                  className="button small"
                  aria-label={`Remove ${word}`}
                  onClick={() => remove(word)}
                >
                  Remove
                </button>
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}
