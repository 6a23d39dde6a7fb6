import type { DraftRow } from '../db/queries/drafts.js';
import type { Draft } from '../shared/zulip-api/index.js';

/** The Draft object of GET /drafts, `drafts` events and POST /register. */
export function formatDraft(row: DraftRow): Required<Draft> {
  return {
    id: row.id,
    type: row.type,
    to: JSON.parse(row.recipients) as number[],
    topic: row.topic,
    content: row.content,
    // Zulip keeps the client's fraction of a second for ordering and shows whole seconds.
    timestamp: Math.trunc(row.last_edit_time),
  };
}
