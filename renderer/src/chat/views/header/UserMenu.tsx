import {
  type KeyboardEvent as ReactKeyboardEvent,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { useChat } from '../../data/store-context.js';
import { Avatar } from '../../ui/Avatar.js';
import { type NotificationPermissionState, requestNotifications } from '../notifications.js';

interface UserMenuProps {
  onLogOut: () => void;
  onShowShortcuts: () => void;
  onOpenSettings: () => void;
  notifications: NotificationPermissionState;
  onNotificationsChanged: () => void;
}

/** Your name in the header; its menu: administration, notifications, personal settings, shortcuts, log out. */
export function UserMenu({
  onLogOut,
  onShowShortcuts,
  onOpenSettings,
  notifications,
  onNotificationsChanged,
}: UserMenuProps) {
  const me = useChat((s) => s.users.get(s.ownUserId));
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent) {
        if (event.key !== 'Escape') return;
        button.current?.focus();
      } else if (root.current?.contains(event.target as Node)) {
        return;
      }
      setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    // The first item takes focus, so the menu is usable from the keyboard at once.
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const onMenuKey = (event: ReactKeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const items = Array.from(
      root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [],
    );
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = (at + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
    items[next]?.focus();
  };

  const isAdmin = me?.is_admin === true || me?.is_owner === true;
  const pick = (action: () => void) => () => {
    setOpen(false);
    action();
  };
  return (
    <div className="user-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="user-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        <Avatar url={me?.avatar_url ?? null} name={me?.full_name ?? '?'} size={28} />
        <span className="user-menu-name">{me?.full_name ?? 'Account'}</span>
      </button>
      {open && (
        <div id={menuId} role="menu" className="menu" aria-label="Account" onKeyDown={onMenuKey}>
          {me && <p className="menu-note">{me.email}</p>}
          {isAdmin && (
            <a role="menuitem" href="/admin/" className="menu-item">
              Administration
            </a>
          )}
          {notifications === 'default' && (
            <button
              role="menuitem"
              type="button"
              className="menu-item"
              onClick={pick(() => void requestNotifications().then(onNotificationsChanged))}
            >
              Enable desktop notifications
            </button>
          )}
          <button
            role="menuitem"
            type="button"
            className="menu-item"
            onClick={pick(onOpenSettings)}
          >
            Personal settings
          </button>
          <button
            role="menuitem"
            type="button"
            className="menu-item"
            onClick={pick(onShowShortcuts)}
          >
            Keyboard shortcuts
          </button>
          <button role="menuitem" type="button" className="menu-item" onClick={pick(onLogOut)}>
            Log out
          </button>
        </div>
      )}
    </div>
  );
}
