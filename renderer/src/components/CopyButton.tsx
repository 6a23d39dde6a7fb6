import { useEffect, useState } from 'react';

/** Copies `text`; says so (politely, for screen readers) for a moment. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(null), 1500);
    return () => clearTimeout(timer);
  }, [said]);
  return (
    <button
      type="button"
      className="button small"
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => setSaid('Copied'),
          () => setSaid('Copy failed'),
        )
      }
    >
      <span aria-live="polite">{said ?? label}</span>
    </button>
  );
}
