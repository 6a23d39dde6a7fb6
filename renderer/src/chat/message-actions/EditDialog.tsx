import { useEffect, useId, useMemo, useState } from 'react';
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH, textLength } from '../compose/limits.js';
import { ApiError } from '../data/api.js';
import type { Message } from '../data/model.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { Dialog } from '../ui/Dialog.js';
import { editParams, PROPAGATE_LABELS, type PropagateMode } from './edit-request.js';
import { rawContent } from './fetch-message.js';
import type { MessagePermissions } from './permissions.js';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/**
 * Editing a message: its content (the sender, within the time limit), and
 * for channel messages its topic and channel with how far the move reaches.
 * Only the fields the person may change are offered.
 */
export function EditDialog({
  message,
  permissions,
  onClose,
  returnFocus,
}: {
  message: Message;
  permissions: MessagePermissions;
  onClose(): void;
  returnFocus: HTMLElement | null;
}) {
  const id = useId();
  const api = useZulipApi();
  const subscriptions = useChat((s) => s.subscriptions);
  const [original, setOriginal] = useState<string | null>(null);
  const [content, setContent] = useState<string | null>(null);
  const [topic, setTopic] = useState(message.subject);
  const [channelId, setChannelId] = useState<number | null>(message.stream_id ?? null);
  const [propagateMode, setPropagateMode] = useState<PropagateMode>('change_later');
  const [notifyOld, setNotifyOld] = useState(false);
  const [notifyNew, setNotifyNew] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!permissions.editContent) return;
    rawContent(api, message.id).then(
      (raw) => {
        setOriginal(raw);
        setContent(raw);
      },
      (err: unknown) => setError(errorText(err)),
    );
  }, [api, message.id, permissions.editContent]);

  const channels = useMemo(
    () =>
      [...subscriptions.values()]
        .filter((s) => !s.is_archived || s.stream_id === message.stream_id)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [subscriptions, message.stream_id],
  );
  const isChannel = message.type === 'stream';
  const moving =
    (permissions.editTopic && topic.trim() !== message.subject) ||
    (permissions.moveChannel && channelId !== (message.stream_id ?? null));
  const tooLong =
    (content !== null && textLength(content) > MAX_MESSAGE_LENGTH) ||
    textLength(topic.trim()) > MAX_TOPIC_LENGTH;

  const save = async (close: () => void) => {
    const params = editParams(
      {
        content: permissions.editContent ? content : null,
        topic: isChannel && permissions.editTopic ? topic : null,
        channelId: isChannel && permissions.moveChannel ? channelId : null,
        propagateMode,
        notifyOldThread: notifyOld,
        notifyNewThread: notifyNew,
      },
      { content: original, topic: message.subject, channelId: message.stream_id ?? null },
    );
    if (!params) {
      close();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await api.call('PATCH', `/messages/${message.id}`, params);
      close();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  const title = permissions.editContent ? 'Edit message' : 'Move message';
  return (
    <Dialog title={title} onClose={onClose} returnFocus={returnFocus} className="edit-dialog">
      {(close) => (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save(close);
          }}
        >
          {isChannel && (permissions.editTopic || permissions.moveChannel) && (
            <div className="edit-recipient">
              {permissions.moveChannel && (
                <label>
                  Channel
                  <select
                    value={channelId ?? ''}
                    onChange={(event) => setChannelId(Number(event.target.value))}
                  >
                    {channels.map((c) => (
                      <option key={c.stream_id} value={c.stream_id}>
                        #{c.name}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              {permissions.editTopic && (
                <label>
                  Topic
                  <input
                    type="text"
                    value={topic}
                    onChange={(event) => setTopic(event.target.value)}
                  />
                </label>
              )}
              {textLength(topic.trim()) > MAX_TOPIC_LENGTH && (
                <p className="field-error" role="status">
                  Topics are at most {MAX_TOPIC_LENGTH} characters.
                </p>
              )}
            </div>
          )}
          {moving && (
            <fieldset className="edit-move-options">
              <legend>Which messages</legend>
              <select
                aria-label="Which messages to move"
                value={propagateMode}
                onChange={(event) => setPropagateMode(event.target.value as PropagateMode)}
              >
                {(Object.keys(PROPAGATE_LABELS) as PropagateMode[]).map((mode) => (
                  <option key={mode} value={mode}>
                    {PROPAGATE_LABELS[mode]}
                  </option>
                ))}
              </select>
              <label>
                <input
                  type="checkbox"
                  checked={notifyOld}
                  onChange={(event) => setNotifyOld(event.target.checked)}
                />
                Send automated notice to old topic
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={notifyNew}
                  onChange={(event) => setNotifyNew(event.target.checked)}
                />
                Send automated notice to new topic
              </label>
            </fieldset>
          )}
          {permissions.editContent && (
            <>
              <label htmlFor={`${id}-content`} className="visually-hidden">
                Message
              </label>
              <textarea
                id={`${id}-content`}
                className="edit-content"
                rows={6}
                // The text is what one opens the editor for.
                autoFocus
                value={content ?? ''}
                disabled={content === null}
                placeholder={content === null ? 'Loading…' : undefined}
                onChange={(event) => setContent(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                    event.preventDefault();
                    void save(close);
                  }
                }}
              />
              {content !== null && textLength(content) > MAX_MESSAGE_LENGTH && (
                <p className="field-error" role="status">
                  {textLength(content) - MAX_MESSAGE_LENGTH} characters over the limit of{' '}
                  {MAX_MESSAGE_LENGTH}.
                </p>
              )}
            </>
          )}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={saving || tooLong}>
              {saving ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
