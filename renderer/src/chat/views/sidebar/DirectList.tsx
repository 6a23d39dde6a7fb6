import './direct-list.css';
import { useMemo } from 'react';
import type { ChatState, User } from '../../data/model.js';
import { dmKey } from '../../data/narrow.js';
import { useChat, useChatStore } from '../../data/store-context.js';
import { Avatar } from '../../ui/Avatar.js';
import { participantNames } from '../feed/conversation.js';
import { Icon } from '../Icon.js';
import { dmNarrow } from '../narrows.js';
import { hashFor } from '../routing.js';
import { UnreadCount } from './UnreadCount.js';

/** Conversations shown: every one with unreads, then the most recent others. */
const RECENT_SHOWN = 8;

export interface DirectConversation {
  /** `dmKey`: the other participants' ids, sorted, joined by `,` (own id alone for notes to self). */
  key: string;
  userIds: number[];
  maxId: number;
  unread: number;
}

/**
 * DM conversations from the unread counts and Recent conversations, newest
 * first (unread ones the tab has no message of yet go last).
 */
export function directConversations(
  unread: Map<string, number>,
  recent: ChatState['recent'],
  ownUserId: number,
): DirectConversation[] {
  const byKey = new Map<string, DirectConversation>();
  const entry = (key: string) => {
    let found = byKey.get(key);
    if (!found) {
      const userIds = key === '' ? [ownUserId] : key.split(',').map(Number);
      found = { key, userIds, maxId: 0, unread: 0 };
      byKey.set(key, found);
    }
    return found;
  };
  for (const conversation of recent) {
    if (!conversation.userIds) continue;
    const found = entry(dmKey(conversation.userIds, ownUserId));
    found.maxId = Math.max(found.maxId, conversation.maxId);
  }
  for (const [key, count] of unread) entry(key).unread = count;
  return [...byKey.values()].sort((a, b) => b.maxId - a.maxId);
}

export function DirectList({ currentHash }: { currentHash: string }) {
  const unread = useChat((s) => s.unread.directs);
  const recent = useChat((s) => s.recent);
  const users = useChat((s) => s.users);
  const ownUserId = useChat((s) => s.ownUserId);
  const state = useChatStore().getState();
  const conversations = useMemo(
    () => directConversations(unread, recent, ownUserId),
    [unread, recent, ownUserId],
  );
  const shown = conversations.filter((c, i) => c.unread > 0 || i < RECENT_SHOWN);
  return (
    <section className="sidebar-section" aria-labelledby="dm-heading">
      <div className="sidebar-heading">
        <h2 id="dm-heading">Direct messages</h2>
      </div>
      {shown.length === 0 ? (
        <p className="sidebar-empty">No direct messages yet.</p>
      ) : (
        <ul className="sidebar-list">
          {shown.map((conversation) => {
            const hash = hashFor(dmNarrow(conversation.userIds, ownUserId), state);
            const self = conversation.userIds.length === 1 && conversation.userIds[0] === ownUserId;
            return (
              <li key={conversation.key}>
                <a
                  href={hash}
                  className="sidebar-link"
                  aria-current={currentHash === hash ? 'page' : undefined}
                >
                  <ConversationPicture userIds={conversation.userIds} users={users} />
                  <span className="sidebar-label">
                    {participantNames(conversation.userIds, users)}
                    {self && ' (you)'}
                  </span>
                  <UnreadCount count={conversation.unread} />
                </a>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** One person's avatar (yourself for notes to self), as Zulip's list shows; a group's icon. */
function ConversationPicture({ userIds, users }: { userIds: number[]; users: Map<number, User> }) {
  const person = userIds.length === 1 ? users.get(userIds[0]!) : undefined;
  if (!person) {
    return (
      <span className="sidebar-icon">
        <Icon name={userIds.length > 1 ? 'users' : 'user'} />
      </span>
    );
  }
  return (
    <span className="sidebar-icon sidebar-avatar">
      <Avatar url={person.avatar_url} name={person.full_name} size={20} />
    </span>
  );
}
