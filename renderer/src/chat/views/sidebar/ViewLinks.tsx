import { useDraftStore } from '../../compose/use-draft-store.js';
import { useChat } from '../../data/store-context.js';
import { Icon, type IconName } from '../Icon.js';
import {
  DRAFTS_HASH,
  FEED_HASH,
  INBOX_HASH,
  MENTIONS_HASH,
  RECENT_HASH,
  SCHEDULED_HASH,
  STARRED_HASH,
} from '../routing.js';
import { UnreadCount } from './UnreadCount.js';

/** The top of the sidebar: Zulip's views, with their counts. */
export function ViewLinks({ currentHash }: { currentHash: string }) {
  const unread = useChat((s) => s.unread);
  const starred = useChat((s) => s.starred);
  // Zulip's user setting: the count beside Starred shows only when it is on (the default).
  const showStarredCount = useChat((s) => s.settings.starred_message_counts !== false);
  // Local drafts change without an event: counted again whenever the sidebar draws (a new hash).
  useChat((s) => s.drafts);
  const draftCount = useDraftStore().list().length;
  const scheduledCount = useChat((s) => s.scheduledMessages?.size ?? 0);
  const views: {
    hash: string;
    label: string;
    icon: IconName;
    count?: number;
    countLabel?: string;
  }[] = [
    { hash: INBOX_HASH, label: 'Inbox', icon: 'inbox', count: unread.total },
    { hash: RECENT_HASH, label: 'Recent conversations', icon: 'clock' },
    { hash: FEED_HASH, label: 'Combined feed', icon: 'feed', count: unread.total },
    { hash: MENTIONS_HASH, label: 'Mentions', icon: 'at', count: unread.mentions },
    {
      hash: STARRED_HASH,
      label: 'Starred',
      icon: 'star',
      count: showStarredCount ? starred?.size : undefined,
      countLabel: 'starred',
    },
    { hash: DRAFTS_HASH, label: 'Drafts', icon: 'pencil', count: draftCount, countLabel: 'drafts' },
  ];
  // As in Zulip, Scheduled messages shows only while there are some (or while it is open).
  if (scheduledCount > 0 || currentHash === SCHEDULED_HASH) {
    views.push({
      hash: SCHEDULED_HASH,
      label: 'Scheduled messages',
      icon: 'calendar',
      count: scheduledCount,
      countLabel: 'scheduled',
    });
  }
  return (
    <ul className="sidebar-list view-links">
      {views.map((view) => (
        <li key={view.hash}>
          <a
            href={view.hash}
            className="sidebar-link"
            aria-current={currentHash === view.hash ? 'page' : undefined}
          >
            <span className="sidebar-icon">
              <Icon name={view.icon} />
            </span>
            <span className="sidebar-label">{view.label}</span>
            <UnreadCount count={view.count} label={view.countLabel} />
          </a>
        </li>
      ))}
    </ul>
  );
}
