import { useMemo, useState } from 'react';
import { ComposeBox } from '../compose/ComposeBox.js';
import type { Narrow } from '../data/model.js';
import { composeTargetFor, describeNarrow } from '../data/narrow.js';
import { useChat, useChatActions, useChatStore } from '../data/store-context.js';
import { ConfirmDialog } from '../ui/ConfirmDialog.js';
import { MessageFeed } from './feed/MessageFeed.js';
import { TypingNotice } from './feed/TypingNotice.js';
import { narrowKey } from './routing.js';
import { narrowUnreadCount } from './unread.js';

interface FeedViewProps {
  narrow: Narrow;
  selectedId: number | null;
  onSelect: (id: number) => void;
}

/** A narrow's messages: its title, "Mark all as read", the feed, the compose box. */
export function FeedView({ narrow, selectedId, onSelect }: FeedViewProps) {
  const store = useChatStore();
  const actions = useChatActions();
  const list = useChat((s) => s.list);
  const messages = useChat((s) => s.messages);
  const subscriptions = useChat((s) => s.subscriptions);
  const key = narrowKey(narrow);
  const shown = list !== null && narrowKey(list.narrow) === key;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `narrow`; names come with `subscriptions`
  const title = useMemo(
    () =>
      narrow.length === 0
        ? 'Combined feed'
        : describeNarrow(narrow, store.getState()) || 'Messages',
    [key, store, subscriptions],
  );
  // The compose box keeps its target object while the narrow stays (it would reset otherwise).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `narrow`
  const defaultTarget = useMemo(() => composeTargetFor(narrow, store.getState()), [key, store]);
  const unread = useChat((s) => s.unread);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `unread` and `key` stand for the state read
  const hasUnread = useMemo(() => {
    const counted = narrowUnreadCount(narrow, store.getState());
    if (counted !== null) return counted > 0;
    return shown && list.ids.some((id) => messages.get(id)?.flags.includes('read') === false);
  }, [key, unread, shown, list, messages]);
  const [confirming, setConfirming] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `unread` and `key` stand for the state read
  const unreadCount = useMemo(
    () => (confirming ? narrowUnreadCount(narrow, store.getState()) : null),
    [confirming, key, unread],
  );

  return (
    <section className="feed-view" aria-labelledby="view-title">
      <header className="view-header">
        <h1 id="view-title">{title}</h1>
        {hasUnread && (
          <button type="button" className="button small" onClick={() => setConfirming(true)}>
            Mark all as read
          </button>
        )}
      </header>
      {confirming && (
        <ConfirmDialog
          title={narrow.length === 0 ? 'Mark all messages as read?' : `Mark ${title} as read?`}
          confirmLabel="Mark as read"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            actions.markNarrowRead();
          }}
        >
          <p>
            {unreadCount === null
              ? 'Every unread message in this view will be marked as read.'
              : `${unreadCount} unread ${unreadCount === 1 ? 'message' : 'messages'} will be marked as read.`}{' '}
            This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      <div className="feed-body">
        {shown ? (
          <MessageFeed key={key} selectedId={selectedId} onSelect={onSelect} />
        ) : (
          <p className="feed-status">Loading…</p>
        )}
      </div>
      <TypingNotice narrow={narrow} />
      <ComposeBox defaultTarget={defaultTarget} />
    </section>
  );
}
