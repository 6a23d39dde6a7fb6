import { memo, useState } from 'react';
import type { Message } from '../../data/model.js';
import { useChat, useChatActions } from '../../data/store-context.js';
import { InlineEdit } from '../../message-actions/InlineEdit.js';
import { useInlineEditing } from '../../message-actions/inline-edit.js';
import { MessageActions } from '../../message-actions/MessageActions.js';
import { Reactions } from '../../message-actions/Reactions.js';
import { openUserCard } from '../../people/user-card-control.js';
import { Avatar } from '../../ui/Avatar.js';
import { useWidget, Widget } from '../../widgets/Widget.js';
import { formatFullDate, formatTime } from '../time.js';
import { playgroundsOf } from './code-blocks.js';
import type { FeedRowShape } from './conversation.js';
import { MessageContent } from './MessageContent.js';
import { groupsOf } from './my-groups.js';
import { RecipientHeader } from './RecipientHeader.js';
import { contentToShow, isKeywordSearch } from './search-highlight.js';

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
  const playgrounds = useChat((s) => playgroundsOf(s.realm.settings));
  const keywordSearch = useChat((s) => s.list !== null && isKeywordSearch(s.list.narrow));
  const widget = useWidget(message);
  const senderMuted = useChat((s) => {
    const sender = s.messages.get(shape.id)?.sender_id;
    return sender !== undefined && s.mutedUserIds.has(sender);
  });
  const [revealed, setRevealed] = useState(false);
  const editing = useInlineEditing(shape.id);
  if (!message) return <div className="message-gone" />;
  // A muted sender's message stays collapsed until revealed, as in Zulip's web app.
  const hidden = senderMuted && !revealed;
  const senderName = hidden ? 'Muted user' : message.sender_full_name;
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
      {shape.startsConversation && (
        <RecipientHeader message={message} keywordSearch={keywordSearch} />
      )}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: selection by keyboard is the feed's ↑/↓/j/k */}
      <article
        className={classes.join(' ')}
        data-message-id={message.id}
        aria-label={`${senderName}, ${formatTime(message.timestamp, twentyFour)}`}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(message.id)}
      >
        <div className="message-gutter">
          {shape.startsSenderRun ? (
            <button
              type="button"
              className="avatar-button"
              aria-label={`${senderName}: user card`}
              onClick={(event) => openUserCard(message.sender_id, event.currentTarget)}
            >
              <Avatar url={hidden ? null : message.avatar_url} name={senderName} size={36} />
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
                {senderName}
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
          {hidden ? (
            <p className="muted-sender-note">
              This message was hidden because you have muted the sender.{' '}
              <button
                type="button"
                className="link-button"
                onClick={(event) => {
                  event.stopPropagation();
                  setRevealed(true);
                }}
              >
                Click here to reveal.
              </button>
            </p>
          ) : editing ? (
            <InlineEdit message={message} />
          ) : widget ? (
            <Widget message={message} widget={widget} />
          ) : (
            <MessageContent
              html={contentToShow(message, keywordSearch)}
              ownUserId={ownUserId}
              ownGroupIds={groupsOf(groups, ownUserId)}
              playgrounds={playgrounds}
            />
          )}
          {message.failed === true && <FailedSend messageId={message.id} />}
          {!hidden && <Reactions message={message} />}
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
