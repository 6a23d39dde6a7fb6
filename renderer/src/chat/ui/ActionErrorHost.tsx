import './ui.css';
import { useEffect, useState } from 'react';
import { onActionError } from './action-errors.js';

/** Shows the latest failed action (role="alert", so screen readers hear it) until dismissed. */
export function ActionErrorHost() {
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => onActionError(setMessage), []);
  if (!message) return null;
  return (
    <div className="chat-action-error" role="alert">
      <span>{message}</span>
      <button
        type="button"
        className="icon-button"
        aria-label="Dismiss"
        onClick={() => setMessage(null)}
      >
        ×
      </button>
    </div>
  );
}
