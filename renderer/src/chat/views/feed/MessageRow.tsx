import { memo } from 'react';
import type { Message } from '../../data/model.js';
import { useChat, useChatActions } from '../../data/store-context.js';
import { MessageActions } from '../../message-actions/MessageActions.js';
import { Reactions } from '../../message-actions/Reactions.js';
import { openUserCard } from '../../people/user-card-control.js';
import { Avatar } from '../../ui/Avatar.js';
import { useWidget, Widget } from '../../widgets/Widget.js';
import { formatFullDate, formatTime } from '../time.js';
import type { FeedRowShape } from './conversation.js';
import { MessageContent } from './MessageContent.js';
import { groupsOf } from './my-groups.js';
import { RecipientHeader } from './RecipientHeader.js';

interface MessageRowProps {
  shape: FeedRowShape;
  selected: boolean;
  onSelect: (id: number) => void;
}

/** One message in the feed, with its recipient header when it starts a conversation run. */
export const MessageRow = memo(function MessageRow({ shape, selected, onSelect }: MessageRowProps) {
  // Each row follows only its own message: an event elsewhere does not re-render it.
  const message = useChat((s) => s.messages.get(shape.id));
  const ownUserId = useChat((s) => s.ownUserId);
  const twentyFour = useChat((s) => s.settings.twenty_four_hour_time === true);
  const groups = useChat((s) => s.groups);
  const widget = useWidget(message);
  if (!message) return <div className="message-gone" />;
  const unread = !message.flags.includes('read');
  const mentioned =
    message.flags.includes('mentioned') ||
    message.flags.includes('wildcard_mentioned') ||
    message.flags.includes('stream_wildcard_mentioned') ||
    message.flags.includes('topic_wildcard_mentioned');
  const classes = [
    'message',
    shape.startsSenderRun ? 'starts-run' : 'continued',
    selected && 'selected',
    unread && 'unread',
    mentioned && 'mentioned',
    message.local_id !== undefined && 'local-echo',
    message.failed === true && 'failed',
  ].filter(Boolean);
  return (
    <div className="feed-item">
      {shape.startsConversation && <RecipientHeader message={message} />}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: selection by keyboard is the feed's ↑/↓/j/k */}
      <article
        className={classes.join(' ')}
        data-message-id={message.id}
        aria-label={`${message.sender_full_name}, ${formatTime(message.timestamp, twentyFour)}`}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(message.id)}
      >
        <div className="message-gutter">
          {shape.startsSenderRun ? (
            <button
              type="button"
              className="avatar-button"
              aria-label={`${message.sender_full_name}: user card`}
              onClick={(event) => openUserCard(message.sender_id, event.currentTarget)}
            >
              <Avatar url={message.avatar_url} name={message.sender_full_name} size={36} />
            </button>
          ) : null}
        </div>
        <div className="message-main">
          <div className="message-meta">
            {shape.startsSenderRun && (
              <button
                type="button"
                className="sender-name"
                onClick={(event) => openUserCard(message.sender_id, event.currentTarget)}
              >
                {message.sender_full_name}
              </button>
            )}
            <time
              className="message-time"
              dateTime={new Date(message.timestamp * 1000).toISOString()}
              title={formatFullDate(message.timestamp, twentyFour)}
            >
              {formatTime(message.timestamp, twentyFour)}
            </time>
            <EditedMarker message={message} />
            {message.flags.includes('starred') && (
              <span className="starred-marker" role="img" aria-label="Starred" title="Starred">
                ★
              </span>
            )}
          </div>
          {widget ? (
            <Widget message={message} widget={widget} />
          ) : (
            <MessageContent
              html={message.content}
              ownUserId={ownUserId}
              ownGroupIds={groupsOf(groups, ownUserId)}
            />
          )}
          {message.failed === true && <FailedSend messageId={message.id} />}
          <Reactions message={message} />
        </div>
        <div className="message-actions">
          <MessageActions message={message} />
        </div>
      </article>
    </div>
  );
});

/** Zulip's "EDITED" / "MOVED" marker: content edits win over moves. */
function EditedMarker({ message }: { message: Message }) {
  const edited = message.last_edit_timestamp;
  const moved = message.last_moved_timestamp;
  if (edited === undefined && moved === undefined) return null;
  const label = edited !== undefined ? 'edited' : 'moved';
  const when = (edited ?? moved)!;
  return (
    <span className="edited-marker" title={`${label} ${new Date(when * 1000).toLocaleString()}`}>
      ({label})
    </span>
  );
}

/** A send that failed: said under the text, with Zulip's two ways out (send again, or drop it). */
function FailedSend({ messageId }: { messageId: number }) {
  const actions = useChatActions();
  return (
    <p className="failed-send" role="alert">
      <span className="failed-marker">Not sent.</span>
      {actions.retrySend && (
        <button
          type="button"
          className="link-button"
          onClick={(event) => {
            event.stopPropagation();
            actions.retrySend?.(messageId).catch(() => {
              // A second failure marks the new echo failed in turn.
            });
          }}
        >
          Retry
        </button>
      )}
      {actions.discardFailed && (
        <button
          type="button"
          className="link-button"
          onClick={(event) => {
            event.stopPropagation();
            actions.discardFailed?.(messageId);
          }}
        >
          Delete
        </button>
      )}
    </p>
  );
}
