import './ui.css';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

const CloseMenu = createContext<() => void>(() => {});

export interface MenuButtonProps {
  /** The button's accessible name ("Actions for #general"). */
  label: string;
  /** What the button shows; a "⋮" by default. */
  children?: ReactNode;
  /** The menu's items (MenuItem, MenuSeparator), rendered only while open. */
  items: () => ReactNode;
  className?: string;
}

const ITEM = '[role="menuitem"]:not([disabled])';

/**
 * A button that opens a menu (WAI-ARIA menu button): arrows, Home and End
 * move between items, Escape closes and gives focus back to the button, a
 * click elsewhere or Tab closes. The menu is fixed-positioned beside the
 * button so a scrolling sidebar does not clip it.
 */
export function MenuButton({ label, children, items, className }: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);

  const close = useCallback((refocus = true) => {
    setOpen(false);
    setPosition(null);
    if (refocus) button.current?.focus();
  }, []);

  useLayoutEffect(() => {
    if (!open || !button.current || !menu.current) return;
    const anchor = button.current.getBoundingClientRect();
    const box = menu.current.getBoundingClientRect();
    const margin = 4;
    let top = anchor.bottom + margin;
    if (top + box.height > window.innerHeight && anchor.top - box.height - margin >= 0) {
      top = anchor.top - box.height - margin;
    }
    const left = Math.min(
      Math.max(margin, anchor.right - box.width),
      window.innerWidth - box.width - margin,
    );
    setPosition({ top: Math.max(margin, top), left: Math.max(margin, left) });
  }, [open]);

  // A hidden element cannot take focus: the first item gets it once the menu is placed.
  const placed = position !== null;
  useEffect(() => {
    if (placed) menu.current?.querySelector<HTMLElement>(ITEM)?.focus();
  }, [placed]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) close(false);
    };
    // The menu is placed once; when what is under it moves, it would point elsewhere.
    const onMove = (event: Event) => {
      if (!menu.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', onPointer, true);
    window.addEventListener('resize', onMove);
    document.addEventListener('scroll', onMove, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      window.removeEventListener('resize', onMove);
      document.removeEventListener('scroll', onMove, true);
    };
  }, [open, close]);

  const onMenuKey = (event: React.KeyboardEvent) => {
    const entries = Array.from(menu.current?.querySelectorAll<HTMLElement>(ITEM) ?? []);
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => {
      event.preventDefault();
      entries[(index + entries.length) % entries.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return go(at + 1);
      case 'ArrowUp':
        return go(at - 1);
      case 'Home':
        return go(0);
      case 'End':
        return go(entries.length - 1);
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        return close();
      case 'Tab':
        return close(false);
    }
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className={className ?? 'icon-button chat-menu-trigger'}
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : setOpen(true))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {children ?? '⋮'}
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={label}
          className="chat-menu"
          style={
            position
              ? { position: 'fixed', top: position.top, left: position.left }
              : { position: 'fixed', top: 0, left: 0, visibility: 'hidden' }
          }
          onKeyDown={onMenuKey}
        >
          <CloseMenu.Provider value={close}>{items()}</CloseMenu.Provider>
        </div>
      )}
    </>
  );
}

/** One action in a menu; choosing it closes the menu first. */
export function MenuItem({
  onSelect,
  children,
  danger,
  disabled,
}: {
  onSelect: () => void;
  children: ReactNode;
  danger?: boolean;
  disabled?: boolean;
}) {
  const close = useContext(CloseMenu);
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      disabled={disabled}
      className={`chat-menu-item${danger ? ' danger' : ''}`}
      onClick={() => {
        close();
        onSelect();
      }}
    >
      {children}
    </button>
  );
}

export function MenuSeparator() {
  return <hr className="chat-menu-separator" />;
}

/** A caption inside a menu (the channel's name, a group of choices). */
export function MenuLabel({ children }: { children: ReactNode }) {
  return (
    <div className="chat-menu-label" role="presentation">
      {children}
    </div>
  );
}
