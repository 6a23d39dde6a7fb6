import { useEffect, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { Avatar } from '../ui/Avatar.js';
import { Dialog } from '../ui/Dialog.js';

/** Zulip's read receipts: who has read the message (`GET /messages/{id}/read_receipts`), by name. */
export function ReadReceiptsDialog({ messageId, onClose }: { messageId: number; onClose(): void }) {
  const api = useZulipApi();
  const users = useChat((s) => s.users);
  const [readers, setReaders] = useState<number[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.call<{ user_ids: number[] }>('GET', `/messages/${messageId}/read_receipts`).then(
      (answer) => setReaders(answer.user_ids),
      (err: unknown) => setError(err instanceof ApiError ? err.message : String(err)),
    );
  }, [api, messageId]);

  const people = (readers ?? [])
    .map((id) => users.get(id) ?? { user_id: id, full_name: `User ${id}`, avatar_url: null })
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <Dialog title="Read receipts" onClose={onClose} className="read-receipts-dialog">
      {error && <p role="alert">{error}</p>}
      {readers === null && !error && <p>Loading…</p>}
      {readers !== null &&
        (readers.length === 0 ? (
          <p>No one has read this message yet.</p>
        ) : (
          <>
            <p>
              This message has been read by {readers.length}{' '}
              {readers.length === 1 ? 'person' : 'people'}:
            </p>
            <ul className="read-receipts" aria-label="Read by">
              {people.map((person) => (
                <li key={person.user_id}>
                  <Avatar url={person.avatar_url} name={person.full_name} size={24} />
                  <span>{person.full_name}</span>
                </li>
              ))}
            </ul>
          </>
        ))}
      <div className="chat-dialog-actions">
        <button type="button" className="button primary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
