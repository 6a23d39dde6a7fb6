import type { AppContext, Tx } from '../core/context.js';
import {
  deleteDraft,
  deleteDraftsOf,
  draftOf,
  draftsOf,
  insertDraft,
  updateDraft,
} from '../db/queries/drafts.js';
import type { UserRow } from '../db/queries/users.js';
import type { EventBody, EventFields } from '../shared/zulip-api/index.js';
import { formatDraft } from './format.js';
import {
  checkDraftsSynchronized,
  type DraftInput,
  draftNotFound,
  validatedDraft,
} from './rules.js';

/**
 * Drafts are private to their owner: every `drafts` event goes to all of the
 * owner's queues, the one of the client that made the change included (as
 * in Zulip, which sends to the user, not to the other clients).
 */
function emitToOwner(tx: Tx, ownerId: number, event: EventFields<'drafts'>): void {
  tx.emit({
    type: 'drafts',
    users: [ownerId],
    payload: { type: 'drafts', ...event } satisfies EventBody<'drafts'>,
  });
}

/** POST /drafts: all or nothing; ids in the order the drafts were given. */
export function createDrafts(
  ctx: AppContext,
  user: UserRow,
  drafts: readonly DraftInput[],
): { ids: number[] } {
  checkDraftsSynchronized(user);
  const fields = drafts.map((draft) => validatedDraft(ctx, user, draft));
  return ctx.transaction((tx) => {
    const ids = fields.map((f) => insertDraft(ctx.db, user.id, f));
    const created = ids.map((id) => formatDraft(draftOf(ctx.db, user.id, id)!));
    emitToOwner(tx, user.id, { op: 'add', drafts: created });
    return { ids };
  });
}

/** GET /drafts: least recently edited first, as Zulip orders them. */
export function listDrafts(
  ctx: AppContext,
  user: UserRow,
): { count: number; drafts: Record<string, unknown>[] } {
  checkDraftsSynchronized(user);
  const drafts = draftsOf(ctx.db, user.id).map(formatDraft);
  return { count: drafts.length, drafts };
}

/** PATCH /drafts/{draft_id}: replaces the whole draft (every field is given again). */
export function editDraft(
  ctx: AppContext,
  user: UserRow,
  id: number,
  draft: DraftInput,
): Record<string, never> {
  checkDraftsSynchronized(user);
  if (!draftOf(ctx.db, user.id, id)) throw draftNotFound();
  const fields = validatedDraft(ctx, user, draft);
  return ctx.transaction((tx) => {
    updateDraft(ctx.db, id, fields);
    emitToOwner(tx, user.id, { op: 'update', draft: formatDraft(draftOf(ctx.db, user.id, id)!) });
    return {};
  });
}

/** DELETE /drafts/{draft_id} */
export function removeDraft(ctx: AppContext, user: UserRow, id: number): Record<string, never> {
  checkDraftsSynchronized(user);
  if (!draftOf(ctx.db, user.id, id)) throw draftNotFound();
  return ctx.transaction((tx) => {
    deleteDraft(ctx.db, id);
    emitToOwner(tx, user.id, { op: 'remove', draft_id: id });
    return {};
  });
}

/**
 * The drafts side of changing the `enable_drafts_synchronization` setting,
 * for the user-settings operation to call inside its transaction. Turning
 * synchronization off deletes every draft stored for the user, without
 * `drafts` events: the drafts stay on the user's devices, only the server
 * stops keeping them (to delete a draft everywhere, clients use DELETE).
 * Turning it on changes nothing. There is no settings endpoint yet; the one
 * that comes must call this from an area above drafts/ (drafts/ itself
 * imports users/, so users/ cannot call it without a cycle).
 */
export function draftsSynchronizationChanged(
  ctx: AppContext,
  userId: number,
  enabled: boolean,
): void {
  if (enabled) return;
  ctx.transaction(() => {
    deleteDraftsOf(ctx.db, userId);
  });
}
