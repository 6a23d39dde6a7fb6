import { useMemo } from 'react';
import { ComposeBox } from '../compose/ComposeBox.js';
import type { Narrow } from '../data/model.js';
import { composeTargetFor, describeNarrow } from '../data/narrow.js';
import { useChat, useChatActions, useChatStore } from '../data/store-context.js';
import { MessageFeed } from './feed/MessageFeed.js';
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

  return (
    <section className="feed-view" aria-labelledby="view-title">
      <header className="view-header">
        <h1 id="view-title">{title}</h1>
        {hasUnread && (
          <button type="button" className="button small" onClick={() => actions.markNarrowRead()}>
            Mark all as read
          </button>
        )}
      </header>
      <div className="feed-body">
        {shown ? (
          <MessageFeed key={key} selectedId={selectedId} onSelect={onSelect} />
        ) : (
          <p className="feed-status">Loading…</p>
        )}
      </div>
      <ComposeBox defaultTarget={defaultTarget} />
    </section>
  );
}
