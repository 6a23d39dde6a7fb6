import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import {
  deleteSavedSnippet,
  insertSavedSnippet,
  type SavedSnippetRow,
  savedSnippetOf,
  savedSnippetsOf,
  updateSavedSnippet,
} from '../db/queries/saved-snippets.js';
import type { UserRow } from '../db/queries/users.js';
import { MAX_MESSAGE_LENGTH, MAX_SAVED_SNIPPET_TITLE_LENGTH } from '../shared/limits.js';
import type { EventBody, EventFields, SavedSnippet } from '../shared/zulip-api/index.js';

export const savedSnippetNotFound = () =>
  new ApiError('Saved snippet does not exist.', { status: 404 });

/** The SavedSnippet object of GET /saved_snippets, `saved_snippets` events and POST /register. */
export function formatSavedSnippet(row: SavedSnippetRow): SavedSnippet {
  return { id: row.id, title: row.title, content: row.content, date_created: row.date_created };
}

/**
 * A title or content as Zulip keeps it: surrounding whitespace stripped,
 * then not blank and at most `max` characters (code points).
 */
function checkedText(value: string, name: string, max: number): string {
  const stripped = value.trim();
  if (stripped.length === 0) throw badRequest(`${name} cannot be blank`);
  if ([...stripped].length > max) {
    throw badRequest(`${name} is too long (limit: ${max} characters)`);
  }
  return stripped;
}

const checkedTitle = (title: string) => checkedText(title, 'title', MAX_SAVED_SNIPPET_TITLE_LENGTH);
const checkedContent = (content: string) => checkedText(content, 'content', MAX_MESSAGE_LENGTH);

/** Snippets are private: every event goes to all of the owner's queues and nowhere else. */
function emitToOwner(tx: Tx, ownerId: number, event: EventFields<'saved_snippets'>): void {
  tx.emit({
    type: 'saved_snippets',
    users: [ownerId],
    payload: { type: 'saved_snippets', ...event } satisfies EventBody<'saved_snippets'>,
  });
}

/** GET /saved_snippets: oldest first. */
export function listSavedSnippets(
  ctx: AppContext,
  user: UserRow,
): { saved_snippets: SavedSnippet[] } {
  return { saved_snippets: savedSnippetsOf(ctx.db, user.id).map(formatSavedSnippet) };
}

/** POST /saved_snippets */
export function createSavedSnippet(
  ctx: AppContext,
  user: UserRow,
  input: { title: string; content: string },
): { saved_snippet_id: number } {
  const title = checkedTitle(input.title);
  const content = checkedContent(input.content);
  return ctx.transaction((tx) => {
    const id = insertSavedSnippet(ctx.db, user.id, title, content, Math.floor(ctx.now() / 1000));
    emitToOwner(tx, user.id, {
      op: 'add',
      saved_snippet: formatSavedSnippet(savedSnippetOf(ctx.db, user.id, id)!),
    });
    return { saved_snippet_id: id };
  });
}

/**
 * PATCH /saved_snippets/{saved_snippet_id}: changes what is given. Given
 * nothing, it succeeds at once, without looking for the snippet and
 * without an event (as Zulip does).
 */
export function editSavedSnippet(
  ctx: AppContext,
  user: UserRow,
  id: number,
  input: { title?: string | undefined; content?: string | undefined },
): Record<string, never> {
  const title = input.title === undefined ? undefined : checkedTitle(input.title);
  const content = input.content === undefined ? undefined : checkedContent(input.content);
  if (title === undefined && content === undefined) return {};
  const existing = savedSnippetOf(ctx.db, user.id, id);
  if (!existing) throw savedSnippetNotFound();
  return ctx.transaction((tx) => {
    updateSavedSnippet(ctx.db, id, title ?? existing.title, content ?? existing.content);
    emitToOwner(tx, user.id, {
      op: 'update',
      saved_snippet: formatSavedSnippet(savedSnippetOf(ctx.db, user.id, id)!),
    });
    return {};
  });
}

/** DELETE /saved_snippets/{saved_snippet_id} */
export function removeSavedSnippet(
  ctx: AppContext,
  user: UserRow,
  id: number,
): Record<string, never> {
  if (!savedSnippetOf(ctx.db, user.id, id)) throw savedSnippetNotFound();
  return ctx.transaction((tx) => {
    deleteSavedSnippet(ctx.db, id);
    emitToOwner(tx, user.id, { op: 'remove', saved_snippet_id: id });
    return {};
  });
}
