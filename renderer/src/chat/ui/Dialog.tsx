import './ui.css';
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** Extra content beside the title (a secondary heading action). */
  headerExtra?: ReactNode;
}

/**
 * A modal dialog on the native <dialog>: the page behind is inert, focus
 * moves in, Escape and the close button call `onClose`, and focus goes back
 * to where it was when the dialog opened. Mount it to open it, unmount it
 * to close it, so its fields start fresh every time. The element marked
 * `data-autofocus` gets the focus first.
 */
export function Dialog({ title, onClose, children, className, headerExtra }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    // showModal focuses the first focusable (the close button); a form starts at its field.
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      // The opener may have gone (a menu that closed): then the browser's default stands.
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
        {children}
      </div>
    </dialog>
  );
}
