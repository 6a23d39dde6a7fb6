import { useCallback, useEffect, useRef, useState } from 'react';

interface Request {
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  resolve: (ok: boolean) => void;
}

/**
 * A modal confirmation (the native <dialog>: focus moves into it, Escape
 * cancels, focus returns to the button that opened it). `confirm()` resolves
 * true only when the person chose the action.
 */
export function useConfirm() {
  const [request, setRequest] = useState<Request | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (request && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [request]);

  const confirm = useCallback(
    (options: Omit<Request, 'resolve'>) =>
      new Promise<boolean>((resolve) => setRequest({ ...options, resolve })),
    [],
  );

  const finish = (ok: boolean) => {
    request?.resolve(ok);
    dialog.current?.close();
    setRequest(null);
  };

  const element = request ? (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={(event) => {
        event.preventDefault();
        finish(false);
      }}
    >
      <h2 id="confirm-title">{request.title}</h2>
      <p id="confirm-body">{request.body}</p>
      <div className="actions">
        <button type="button" className="button" onClick={() => finish(false)}>
          Cancel
        </button>
        <button
          type="button"
          className={request.danger ? 'button danger' : 'button primary'}
          onClick={() => finish(true)}
        >
          {request.confirmLabel}
        </button>
      </div>
    </dialog>
  ) : null;

  return [element, confirm] as const;
}
