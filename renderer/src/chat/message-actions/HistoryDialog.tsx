import './edit-history.css';
import { useEffect, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { Dialog } from '../ui/Dialog.js';
import { formatTime } from './fetch-message.js';

/** One snapshot of `GET /messages/{id}/history`, oldest first. */
export interface HistorySnapshot {
  topic: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  content: string;
  rendered_content: string;
  prev_content?: string;
  /** Only on content edits: this version's HTML with inserted and deleted words marked. */
  content_html_diff?: string;
  user_id: number | null;
  timestamp: number;
}

/** What a snapshot did, in Zulip's words. */
export function describeSnapshot(snapshot: HistorySnapshot, index: number): string {
  if (index === 0) return 'Original';
  const parts: string[] = [];
  if (snapshot.prev_content !== undefined) parts.push('Edited');
  if (snapshot.prev_stream !== undefined) parts.push('Moved');
  else if (snapshot.prev_topic !== undefined) parts.push('Topic changed');
  return parts.join(', ') || 'Edited';
}

/**
 * The HTML a version shows: the original as it was, a content edit as the
 * server's diff against the version before (Zulip's `content_html_diff`:
 * `highlight_text_inserted` and `highlight_text_deleted` spans), else the
 * version itself; null for a move that left the text alone.
 */
export function versionHtml(snapshot: HistorySnapshot, index: number): string | null {
  if (index === 0) return snapshot.rendered_content;
  if (snapshot.prev_content === undefined) return null;
  return snapshot.content_html_diff ?? snapshot.rendered_content;
}

/** Every version of a message with who made it and when (Zulip's message edit history). */
export function HistoryDialog({
  messageId,
  onClose,
  returnFocus,
}: {
  messageId: number;
  onClose(): void;
  returnFocus: HTMLElement | null;
}) {
  const api = useZulipApi();
  const users = useChat((s) => s.users);
  const channels = useChat((s) => s.channels);
  const twentyFour = useChat((s) => s.settings.twenty_four_hour_time) === true;
  const [history, setHistory] = useState<HistorySnapshot[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.call<{ message_history: HistorySnapshot[] }>('GET', `/messages/${messageId}/history`).then(
      (answer) => setHistory(answer.message_history),
      (err: unknown) => setError(err instanceof ApiError ? err.message : String(err)),
    );
  }, [api, messageId]);

  const channelName = (id: number) => channels.get(id)?.name ?? `channel ${id}`;
  const who = (userId: number | null) =>
    userId === null ? 'Someone' : (users.get(userId)?.full_name ?? 'Unknown user');

  return (
    <Dialog
      title="Message edit history"
      onClose={onClose}
      returnFocus={returnFocus}
      className="history-dialog"
    >
      {() => (
        <>
          {error && <p role="alert">{error}</p>}
          {history === null && !error && <p>Loading…</p>}
          {history?.some((s) => s.content_html_diff !== undefined) && (
            <p className="edit-history-legend">
              <span className="highlight_text_inserted">Added text</span>{' '}
              <span className="highlight_text_deleted">Deleted text</span>
            </p>
          )}
          {history && (
            <ol className="edit-history">
              {history.map((snapshot, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: snapshots have no id and never reorder
                <li key={i} className="edit-version">
                  <p className="edit-version-meta">
                    <strong>{describeSnapshot(snapshot, i)}</strong> by {who(snapshot.user_id)},{' '}
                    <time dateTime={new Date(snapshot.timestamp * 1000).toISOString()}>
                      {formatTime(snapshot.timestamp, twentyFour)}
                    </time>
                  </p>
                  {snapshot.prev_stream !== undefined && snapshot.stream !== undefined && (
                    <p className="edit-version-move">
                      Channel: #{channelName(snapshot.prev_stream)} → #
                      {channelName(snapshot.stream)}
                    </p>
                  )}
                  {snapshot.prev_topic !== undefined && (
                    <p className="edit-version-move">
                      Topic: {snapshot.prev_topic} → {snapshot.topic}
                    </p>
                  )}
                  <VersionContent html={versionHtml(snapshot, i)} />
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </Dialog>
  );
}

function VersionContent({ html }: { html: string | null }) {
  if (html === null) return null;
  return (
    <div
      className="rendered-markdown"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own rendering of that version (or its diff)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
