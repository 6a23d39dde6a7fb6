import './saved.css';
import { useState } from 'react';
import { draftKey } from '../../compose/drafts.js';
import { deliveryText } from '../../compose/ScheduleDialog.js';
import { useDraftStore } from '../../compose/use-draft-store.js';
import { useChat, useChatStore } from '../../data/store-context.js';
import { navigate } from '../routing.js';
import { conversationHash, SavedCard } from './SavedCard.js';

/**
 * Zulip's Drafts view: every unsent message, newest first; restoring one
 * opens its conversation with the draft in the compose box.
 */
export function DraftsView() {
  const drafts = useDraftStore();
  const store = useChatStore();
  const twentyFour = useChat((s) => s.settings.twenty_four_hour_time === true);
  // Server drafts change by events; local ones only here: a bump re-reads them.
  useChat((s) => s.drafts);
  const [, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const entries = drafts.list();
  return (
    <section className="conversation-view saved-view" aria-labelledby="view-title">
      <header className="view-header">
        <h1 id="view-title">Drafts</h1>
      </header>
      <div className="conversation-scroll">
        {error && (
          <p className="chat-form-error" role="alert">
            {error}
          </p>
        )}
        {entries.length === 0 ? (
          <p className="feed-status" role="status">
            No drafts.
          </p>
        ) : (
          <ul className="saved-list" aria-label="Drafts">
            {entries.map((entry) => (
              <SavedCard
                key={draftKey(entry.target)}
                target={entry.target}
                when={deliveryText(entry.timestamp, twentyFour)}
                actions={
                  <>
                    <button
                      type="button"
                      className="button"
                      onClick={() => navigate(conversationHash(entry.target, store.getState()))}
                    >
                      Restore
                    </button>
                    <button
                      type="button"
                      className="button"
                      onClick={() =>
                        void drafts
                          .remove(entry.target)
                          .then(() => setVersion((v) => v + 1))
                          .catch((err: unknown) => setError(String(err)))
                      }
                    >
                      Delete
                    </button>
                  </>
                }
              >
                <p className="saved-card-text">{entry.content}</p>
              </SavedCard>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
