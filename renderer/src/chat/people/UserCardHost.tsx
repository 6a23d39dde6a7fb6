import './people.css';
import { useEffect, useState } from 'react';
import { useChat } from '../data/store-context.js';
import { ActionErrorHost } from '../ui/ActionErrorHost.js';
import { UserCard } from './UserCard.js';
import { onUserCardRequest } from './user-card-control.js';

/**
 * Renders the user card that `openUserCard` asks for (mounted once by the
 * app), and the notice for one-click actions that failed (ui/action-errors),
 * which needs a place that is always mounted too.
 */
export function UserCardHost() {
  const [userId, setUserId] = useState<number | null>(null);
  const user = useChat((s) => (userId === null ? undefined : s.users.get(userId)));
  useEffect(() => onUserCardRequest((id) => setUserId(id)), []);
  return (
    <>
      {user && (
        <UserCard
          key={user.user_id}
          user={user}
          onClose={() => setUserId(null)}
          onOpenUser={setUserId}
        />
      )}
      <ActionErrorHost />
    </>
  );
}
