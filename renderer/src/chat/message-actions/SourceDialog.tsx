import { useEffect, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useZulipApi } from '../data/store-context.js';
import { Dialog } from '../ui/Dialog.js';
import { rawContent } from './fetch-message.js';

/** The message's Markdown, read-only (Zulip's "View original message"). */
export function SourceDialog({
  messageId,
  onClose,
  returnFocus,
}: {
  messageId: number;
  onClose(): void;
  returnFocus: HTMLElement | null;
}) {
  const api = useZulipApi();
  const [source, setSource] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    rawContent(api, messageId).then(setSource, (err: unknown) =>
      setError(err instanceof ApiError ? err.message : String(err)),
    );
  }, [api, messageId]);

  return (
    <Dialog
      title="Message source"
      onClose={onClose}
      returnFocus={returnFocus}
      className="source-dialog"
    >
      {error && <p role="alert">{error}</p>}
      {source === null && !error && <p>Loading…</p>}
      {source !== null && <pre className="message-source">{source}</pre>}
    </Dialog>
  );
}
