import { useEffect, useRef } from 'react';
import { SHORTCUT_GROUPS } from './keyboard.js';

/** The `?` dialog: a native <dialog>, so Esc and focus return work as the browser does them. */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      // The list scrolls, so the browser would focus it first; Close is where a reader starts.
      element.querySelector<HTMLButtonElement>('.dialog-actions button')?.focus();
    }
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="shortcuts-title" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <div className="shortcut-groups">
        {SHORTCUT_GROUPS.map((group) => (
          <table className="shortcuts" key={group.title}>
            <caption>{group.title}</caption>
            <tbody>
              {group.shortcuts.map((shortcut) => (
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
        ))}
      </div>
      <form method="dialog" className="dialog-actions">
        <button type="submit" className="button">
          Close
        </button>
      </form>
    </dialog>
  );
}
