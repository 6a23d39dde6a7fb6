import './people.css';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { User } from '../data/model.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { Avatar } from '../ui/Avatar.js';
import { actionFailure, reportActionError } from '../ui/action-errors.js';
import { Emoji } from '../ui/Emoji.js';
import { MenuButton, MenuItem } from '../ui/Menu.js';
import { useMinuteClock } from '../ui/use-minute-clock.js';
import { lastSeenText, presenceStatus, userListSections } from './people-model.js';
import { StatusDialog } from './StatusDialog.js';
import { openUserCard } from './user-card-control.js';

const SECTION_TITLES = { active: 'Active', idle: 'Idle', offline: 'Offline' } as const;
/**
 * Rows drawn at first: more than a tall window shows. As in Zulip's buddy
 * list, more are drawn as the list scrolls towards its end, so an
 * organization's hundreds of users (a fifth of the page's elements per
 * hundred) do not hold back the page's first messages.
 */
const FIRST_ROWS = 50;
const MORE_ROWS = 100;
/** Pixels before the drawn rows' end at which the next ones are drawn. */
const DRAW_AHEAD_PX = 300;

/**
 * The right-hand list of users (Zulip's buddy list): humans grouped by
 * presence with their status, bots collapsed below, a filter; a name opens
 * the user card. Your own entry has a menu for your status and for being
 * away.
 */
export function UserList() {
  const users = useChat((s) => s.users);
  const presence = useChat((s) => s.presence);
  const settings = useChat((s) => s.settings);
  const ownUserId = useChat((s) => s.ownUserId);
  const mutedUserIds = useChat((s) => s.mutedUserIds);
  const [filter, setFilter] = useState('');
  const [statusOpen, setStatusOpen] = useState(false);
  const headingId = useId();
  const filterId = useId();
  const now = useMinuteClock();

  const sections = useMemo(
    () => userListSections({ users, presence, settings, ownUserId, mutedUserIds }, filter),
    [users, presence, settings, ownUserId, mutedUserIds, filter],
  );
  const humans = sections.active.length + sections.idle.length + sections.offline.length;
  const [rowLimit, setRowLimit] = useState(FIRST_ROWS);
  const shownCounts = useMemo(() => {
    let left = rowLimit;
    const take = (length: number) => {
      const count = Math.min(length, left);
      left -= count;
      return count;
    };
    return {
      active: take(sections.active.length),
      idle: take(sections.idle.length),
      offline: take(sections.offline.length),
    };
  }, [sections, rowLimit]);

  return (
    <section className="user-list" aria-labelledby={headingId}>
      <h2 id={headingId} className="user-list-title">
        Users
      </h2>
      <div className="user-list-filter">
        <label htmlFor={filterId} className="visually-hidden">
          Filter users
        </label>
        <input
          id={filterId}
          type="search"
          placeholder="Filter users"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && filter) {
              event.stopPropagation();
              setFilter('');
            }
          }}
        />
      </div>
      {(['active', 'idle', 'offline'] as const).map((key) =>
        sections[key].length > 0 ? (
          <UserSection
            key={key}
            title={SECTION_TITLES[key]}
            users={sections[key]}
            shown={shownCounts[key]}
            now={now}
            onSetStatus={() => setStatusOpen(true)}
          />
        ) : null,
      )}
      {humans > rowLimit && (
        <DrawMore key={rowLimit} onNear={() => setRowLimit(rowLimit + MORE_ROWS)} />
      )}
      {humans === 0 && filter.trim() && <p className="user-list-empty">No matching users.</p>}
      {sections.bots.length > 0 && (
        <details className="user-list-bots" open={Boolean(filter.trim()) || undefined}>
          <summary>Bots ({sections.bots.length})</summary>
          <ul>
            {sections.bots.map((bot) => (
              <UserRow key={bot.user_id} user={bot} now={now} onSetStatus={() => {}} />
            ))}
          </ul>
        </details>
      )}
      {statusOpen && <StatusDialog onClose={() => setStatusOpen(false)} />}
    </section>
  );
}

/** An empty mark after the drawn rows: coming within reach of it draws more. */
function DrawMore({ onNear }: { onNear: () => void }) {
  const mark = useRef<HTMLDivElement>(null);
  const near = useRef(onNear);
  near.current = onNear;
  useEffect(() => {
    const element = mark.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) near.current();
      },
      { root: scrollingAncestor(element), rootMargin: `0px 0px ${DRAW_AHEAD_PX}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return <div ref={mark} className="user-list-more" aria-hidden="true" />;
}

/** The element that scrolls the list (the users panel), or null for the page's viewport. */
function scrollingAncestor(element: HTMLElement): HTMLElement | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return node;
  }
  return null;
}

function UserSection({
  title,
  users,
  shown,
  now,
  onSetStatus,
}: {
  title: string;
  users: User[];
  /** How many of `users` to draw now (the rest come with the deferred render). */
  shown: number;
  now: Date;
  onSetStatus: () => void;
}) {
  const id = useId();
  return (
    <div className="user-list-section">
      <h3 id={id}>
        {title} <span className="count">({users.length})</span>
      </h3>
      <ul aria-labelledby={id}>
        {users.slice(0, shown).map((user) => (
          <UserRow key={user.user_id} user={user} now={now} onSetStatus={onSetStatus} />
        ))}
      </ul>
    </div>
  );
}

function UserRow({ user, now, onSetStatus }: { user: User; now: Date; onSetStatus: () => void }) {
  const ownUserId = useChat((s) => s.ownUserId);
  const status = useChat((s) => s.userStatus.get(user.user_id));
  const presence = useChat((s) => s.presence);
  const settings = useChat((s) => s.settings);
  const realmEmoji = useChat((s) => s.realm.emoji);
  // Zulip's user_list_style 1 is the compact list: names and presence only.
  const withAvatar = settings.user_list_style !== 1;
  const isSelf = user.user_id === ownUserId;
  const shown = presenceStatus({ ownUserId, presence, settings }, user.user_id);
  const userPresence = presence.get(user.user_id);
  const seen = user.is_bot ? 'Bot' : lastSeenText(shown, userPresence?.last_active, now);
  const text = status?.status_text;
  return (
    <li className={`user-row presence-${user.is_bot ? 'bot' : shown}`} data-user-id={user.user_id}>
      <button
        type="button"
        className="user-row-button"
        title={[user.full_name, text, seen].filter(Boolean).join('\n')}
        onClick={(event) => openUserCard(user.user_id, event.currentTarget)}
      >
        {withAvatar ? (
          <span className="user-row-avatar">
            <Avatar url={user.avatar_url} name={user.full_name} size={24} />
            {!user.is_bot && <span className="presence-dot" aria-hidden="true" />}
          </span>
        ) : (
          !user.is_bot && <span className="presence-dot" aria-hidden="true" />
        )}
        <span className="user-row-name">
          {user.full_name}
          {isSelf && <span className="user-row-you"> (you)</span>}
        </span>
        {status && (
          <Emoji emoji={status} realmEmoji={realmEmoji} className="emoji user-row-emoji" />
        )}
        {text && <span className="user-row-status">{text}</span>}
        <span className="visually-hidden">, {seen}</span>
      </button>
      {isSelf && <OwnStatusMenu onSetStatus={onSetStatus} />}
    </li>
  );
}

/** Your own entry's menu: status and away (`POST /users/me/status`). */
function OwnStatusMenu({ onSetStatus }: { onSetStatus: () => void }) {
  const api = useZulipApi();
  const status = useChat((s) => s.userStatus.get(s.ownUserId));
  const presenceEnabled = useChat((s) => s.settings.presence_enabled !== false);
  const hasStatus = Boolean(status?.status_text || status?.emoji_name);
  const send = (what: string, params: Record<string, unknown>) =>
    api
      .call('POST', '/users/me/status', params)
      .catch((err) => reportActionError(actionFailure(what, err)));
  return (
    <MenuButton
      label="Your status"
      items={() => (
        <>
          <MenuItem onSelect={onSetStatus}>{hasStatus ? 'Edit status' : 'Set a status'}</MenuItem>
          {hasStatus && (
            <MenuItem
              onSelect={() => void send('clear your status', { status_text: '', emoji_name: '' })}
            >
              Clear status
            </MenuItem>
          )}
          {presenceEnabled ? (
            <MenuItem onSelect={() => void send('set you as away', { away: true })}>
              Set yourself as away
            </MenuItem>
          ) : (
            <MenuItem onSelect={() => void send('set you as active', { away: false })}>
              Set yourself as active
            </MenuItem>
          )}
        </>
      )}
    />
  );
}
