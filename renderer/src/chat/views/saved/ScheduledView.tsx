import './saved.css';
import { useMemo, useState } from 'react';
import { requestComposeOnArrival } from '../../compose/compose-control.js';
import { deliveryText } from '../../compose/ScheduleDialog.js';
import { scheduledTarget, soonestFirst } from '../../compose/scheduled.js';
import { ApiError } from '../../data/api.js';
import type { ScheduledMessage } from '../../data/model.js';
import { useChat, useChatStore, useZulipApi } from '../../data/store-context.js';
import { navigate } from '../routing.js';
import { conversationHash, SavedCard } from './SavedCard.js';

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/**
 * Zulip's Scheduled messages view: soonest first. Editing takes the message
 * off the schedule and opens it in its conversation's compose box (as
 * Zulip's web app does), which offers its time again; deleting cancels it.
 */
export function ScheduledView() {
  const api = useZulipApi();
  const store = useChatStore();
  const scheduled = useChat((s) => s.scheduledMessages);
  const ownUserId = useChat((s) => s.ownUserId);
  const twentyFour = useChat((s) => s.settings.twenty_four_hour_time === true);
  const list = useMemo(() => soonestFirst(scheduled?.values() ?? []), [scheduled]);
  const [error, setError] = useState<string | null>(null);

  const edit = async (message: ScheduledMessage) => {
    try {
      await api.call('DELETE', `/scheduled_messages/${message.scheduled_message_id}`);
    } catch (err) {
      setError(errorText(err));
      return;
    }
    const target = scheduledTarget(message, ownUserId);
    requestComposeOnArrival({
      target,
      content: message.content,
      unscheduledFrom: message.scheduled_delivery_timestamp,
    });
    navigate(conversationHash(target, store.getState()));
  };

  const cancel = (message: ScheduledMessage) =>
    api
      .call('DELETE', `/scheduled_messages/${message.scheduled_message_id}`)
      .catch((err: unknown) => setError(errorText(err)));

  return (
    <section className="conversation-view saved-view" aria-labelledby="view-title">
      <header className="view-header">
        <h1 id="view-title">Scheduled messages</h1>
      </header>
      <div className="conversation-scroll">
        {error && (
          <p className="chat-form-error" role="alert">
            {error}
          </p>
        )}
        {list.length === 0 ? (
          <p className="feed-status" role="status">
            No scheduled messages.
          </p>
        ) : (
          <ul className="saved-list" aria-label="Scheduled messages">
            {list.map((message) => (
              <SavedCard
                key={message.scheduled_message_id}
                target={scheduledTarget(message, ownUserId)}
                when={deliveryText(message.scheduled_delivery_timestamp, twentyFour)}
                failed={message.failed}
                actions={
                  <>
                    {message.failed && (
                      <span className="saved-card-failed">This message could not be sent.</span>
                    )}
                    <button type="button" className="button" onClick={() => void edit(message)}>
                      Edit
                    </button>
                    <button type="button" className="button" onClick={() => void cancel(message)}>
                      Delete
                    </button>
                  </>
                }
              >
                <div
                  className="rendered-markdown"
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own rendering, as the feed shows messages
                  dangerouslySetInnerHTML={{ __html: message.rendered_content }}
                />
              </SavedCard>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
