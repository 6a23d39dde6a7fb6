import { useId, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { Dialog } from '../ui/Dialog.js';
import { MenuButton, MenuItem, MenuLabel, MenuSeparator } from '../ui/Menu.js';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/**
 * Zulip's saved snippets in the compose bar: choosing one inserts its text;
 * a new one starts from what the box holds; each can be deleted.
 */
export function SnippetsButton({
  disabled,
  currentText,
  onInsert,
}: {
  disabled: boolean;
  currentText: () => string;
  onInsert(content: string): void;
}) {
  const snippetMap = useChat((s) => s.savedSnippets);
  const snippets = useMemo(
    () => [...(snippetMap?.values() ?? [])].sort((a, b) => a.title.localeCompare(b.title)),
    [snippetMap],
  );
  const [open, setOpen] = useState<'add' | 'manage' | null>(null);
  const [start, setStart] = useState('');
  return (
    <>
      <MenuButton
        label="Saved snippets"
        className="button compose-snippets"
        items={() => (
          <>
            <MenuLabel>Saved snippets</MenuLabel>
            {snippets.length === 0 && <MenuLabel>You have no saved snippets.</MenuLabel>}
            {snippets.map((snippet) => (
              <MenuItem
                key={snippet.id}
                disabled={disabled}
                onSelect={() => onInsert(snippet.content)}
              >
                {snippet.title}
              </MenuItem>
            ))}
            <MenuSeparator />
            <MenuItem
              onSelect={() => {
                setStart(currentText());
                setOpen('add');
              }}
            >
              Add a new saved snippet
            </MenuItem>
            {snippets.length > 0 && (
              <MenuItem onSelect={() => setOpen('manage')}>Delete saved snippets</MenuItem>
            )}
          </>
        )}
      >
        Snippets
      </MenuButton>
      {/* In the body, not inside the compose box's own form (forms do not nest). */}
      {open === 'add' &&
        createPortal(
          <AddSnippetDialog initial={start} onClose={() => setOpen(null)} />,
          document.body,
        )}
      {open === 'manage' &&
        createPortal(<ManageSnippetsDialog onClose={() => setOpen(null)} />, document.body)}
    </>
  );
}

function AddSnippetDialog({ initial, onClose }: { initial: string; onClose(): void }) {
  const id = useId();
  const api = useZulipApi();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (title.trim() === '' || content.trim() === '') {
      setError('A saved snippet needs a title and some text.');
      return;
    }
    setBusy(true);
    try {
      await api.call('POST', '/saved_snippets', { title: title.trim(), content });
      onClose();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <Dialog title="Add a new saved snippet" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          // React carries the event up through the portal: the compose form must not send.
          event.stopPropagation();
          void save();
        }}
      >
        <div className="chat-field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            type="text"
            value={title}
            data-autofocus
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <div className="chat-field">
          <label htmlFor={`${id}-content`}>Content</label>
          <textarea
            id={`${id}-content`}
            rows={5}
            value={content}
            onChange={(event) => setContent(event.target.value)}
          />
        </div>
        {error && (
          <p className="chat-form-error" role="alert">
            {error}
          </p>
        )}
        <div className="chat-dialog-actions">
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

function ManageSnippetsDialog({ onClose }: { onClose(): void }) {
  const api = useZulipApi();
  const snippetMap = useChat((s) => s.savedSnippets);
  const snippets = [...(snippetMap?.values() ?? [])].sort((a, b) => a.title.localeCompare(b.title));
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title="Saved snippets" onClose={onClose}>
      {snippets.length === 0 ? (
        <p>You have no saved snippets.</p>
      ) : (
        <ul className="snippet-list">
          {snippets.map((snippet) => (
            <li key={snippet.id}>
              <div className="snippet-text">
                <strong>{snippet.title}</strong>
                <span>{snippet.content}</span>
              </div>
              <button
                type="button"
                className="button"
                aria-label={`Delete ${snippet.title}`}
                onClick={() =>
                  void api
                    .call('DELETE', `/saved_snippets/${snippet.id}`)
                    .catch((err: unknown) => setError(errorText(err)))
                }
              >
                Delete
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
      <div className="chat-dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
