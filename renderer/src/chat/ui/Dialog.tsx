import './ui.css';
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface DialogProps {
  title: string;
  /** Escape, the close button or `close` from the content: the owner unmounts the dialog. */
  onClose: () => void;
  /** The content, or a function of `close` for content that closes the dialog itself. */
  children: ReactNode | ((close: () => void) => ReactNode);
  className?: string;
  /** Extra content beside the title (a secondary heading action). */
  headerExtra?: ReactNode;
  /**
   * Where focus goes back when the dialog closes, when not to the element
   * focused as it opened (a menu item that is gone by then: the menu's button).
   */
  returnFocus?: HTMLElement | null;
}

/**
 * A modal dialog on the native <dialog>: the page behind is inert, focus
 * moves in, Escape and the close button call `onClose`, and focus goes back
 * to where it was when the dialog opened. Mount it to open it, unmount it
 * to close it, so its fields start fresh every time. The element marked
 * `data-autofocus` gets the focus first.
 */
export function Dialog({
  title,
  onClose,
  children,
  className,
  headerExtra,
  returnFocus,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const returnFocusRef = useRef(returnFocus);
  returnFocusRef.current = returnFocus;

  useEffect(() => {
    const dialog = ref.current;
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    // showModal focuses the first focusable (the close button); a form starts at its field.
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      // The opener may have gone (a menu that closed): then the browser's default stands.
      const opener = returnFocusRef.current ?? focused;
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog chat-dialog${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        closeRef.current();
      }}
      onKeyDown={(event) => {
        // A search field takes Escape for itself (no cancel event follows), yet it should close.
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          event.stopPropagation();
          closeRef.current();
        }
      }}
    >
      <div className="chat-dialog-body">
        <header className="chat-dialog-header">
          <h2 id={titleId}>{title}</h2>
          {headerExtra}
          <button
            type="button"
            className="icon-button chat-dialog-close"
            aria-label="Close"
            onClick={() => closeRef.current()}
          >
            ×
          </button>
        </header>
        {typeof children === 'function' ? children(() => closeRef.current()) : children}
      </div>
    </dialog>
  );
}
