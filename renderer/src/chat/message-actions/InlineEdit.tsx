import './inline-edit.css';
import { useEffect, useId, useRef, useState } from 'react';
import { MAX_MESSAGE_LENGTH, textLength } from '../compose/limits.js';
import { ApiError } from '../data/api.js';
import type { Message } from '../data/model.js';
import { useZulipApi } from '../data/store-context.js';
import { editParams } from './edit-request.js';
import { rawContent } from './fetch-message.js';
import { stopInlineEdit } from './inline-edit.js';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/**
 * A message's text edited where it stands in the feed, as Zulip's web app
 * does: its Markdown fetched unrendered, Save (or Ctrl+Enter) sends only
 * the content, Cancel (or Escape) leaves it as it was. The saved text comes
 * back as an `update_message` event like any other edit.
 */
export function InlineEdit({ message }: { message: Message }) {
  const id = useId();
  const api = useZulipApi();
  const area = useRef<HTMLTextAreaElement>(null);
  const [original, setOriginal] = useState<string | null>(null);
  const [content, setContent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const done = () => stopInlineEdit(message.id);

  useEffect(() => {
    let live = true;
    rawContent(api, message.id).then(
      (raw) => {
        if (!live) return;
        setOriginal(raw);
        setContent(raw);
      },
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [api, message.id]);

  // Once the text is there: focus at its end, the box as tall as the text.
  useEffect(() => {
    const box = area.current;
    if (!box || original === null) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, [original]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the text
  useEffect(() => {
    const box = area.current;
    if (!box) return;
    box.style.height = 'auto';
    box.style.height = `${Math.min(box.scrollHeight + 2, 400)}px`;
  }, [content]);

  const tooLong = content !== null && textLength(content) > MAX_MESSAGE_LENGTH;
  const save = async () => {
    if (content === null || tooLong || saving) return;
    const params = editParams(
      {
        content,
        topic: null,
        channelId: null,
        propagateMode: 'change_one',
        notifyOldThread: false,
        notifyNewThread: false,
      },
      { content: original, topic: message.subject, channelId: message.stream_id ?? null },
    );
    if (!params) {
      done();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await api.call('PATCH', `/messages/${message.id}`, params);
      done();
    } catch (err) {
      setError(errorText(err));
      setSaving(false);
    }
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: only stops the row's click-to-select; the form's own controls take the keyboard
    <form
      className="inline-edit chat-field"
      aria-label="Edit message"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      // The row selects its message on click; typing here must not move the selection.
      onClick={(event) => event.stopPropagation()}
    >
      <label htmlFor={`${id}-content`} className="visually-hidden">
        Message
      </label>
      <textarea
        ref={area}
        id={`${id}-content`}
        className="inline-edit-content"
        rows={2}
        value={content ?? ''}
        disabled={content === null || saving}
        placeholder={content === null ? 'Loading…' : undefined}
        onChange={(event) => setContent(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void save();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            done();
          }
        }}
      />
      {tooLong && (
        <p className="field-error" role="status">
          {textLength(content) - MAX_MESSAGE_LENGTH} characters over the limit of{' '}
          {MAX_MESSAGE_LENGTH}.
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="inline-edit-actions">
        <button
          type="submit"
          className="button primary"
          disabled={saving || tooLong || content === null}
        >
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button" onClick={done}>
          Cancel
        </button>
        <span className="inline-edit-hint">Ctrl+Enter to save, Esc to cancel</span>
      </div>
    </form>
  );
}
