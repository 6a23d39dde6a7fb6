import { useEffect, useRef } from 'react';
import { SHORTCUTS } from './keyboard.js';

/** The `?` dialog: a native <dialog>, so Esc and focus return work as the browser does them. */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="shortcuts-title" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.action}>
              <td>
                {shortcut.keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 && ' or '}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </td>
              <td>{shortcut.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog" className="dialog-actions">
        <button type="submit" className="button">
          Close
        </button>
      </form>
    </dialog>
  );
}
