import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface DialogProps {
  title: string;
  /** Called once the dialog has closed (Escape, a Close button, or `close` from the content). */
  onClose(): void;
  /** Gets focus back when the dialog closes (the actions button that led here). */
  returnFocus: HTMLElement | null;
  className?: string;
  children: (close: () => void, titleId: string) => ReactNode;
}

/**
 * A modal on the native <dialog> (focus moves in, Escape closes, the page
 * behind is inert), like the admin UI's; focus goes back to `returnFocus`.
 */
export function Dialog({ title, onClose, returnFocus, className, children }: DialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const closedRef = useRef(onClose);
  closedRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const close = () => ref.current?.close();

  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      onClose={() => {
        closedRef.current();
        if (returnFocus?.isConnected) returnFocus.focus();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children(close, titleId)}
    </dialog>
  );
}
