import type { AppContext, Tx } from '../core/context.js';
import { BLANK_FIELD, badRequest, FieldErrors } from '../core/errors.js';
import {
  allLinkifiers,
  deleteLinkifier,
  insertLinkifier,
  linkifierById,
  otherLinkifierWithPattern,
  setLinkifierOrder,
  updateLinkifier,
} from '../db/queries/realm-linkifiers.js';
import { activeUserIds, type UserRow } from '../db/queries/users.js';
import { checkLinkifierPattern } from '../markdown/index.js';
import { requireRole } from '../shared/roles.js';
import { isValidUrlTemplate, templateVariableNames } from '../shared/url-templates.js';
import type { EventBody } from '../shared/zulip-api/index.js';

const notFound = () => badRequest('Linkifier not found.');

/**
 * The whole list, in order, to everyone in the organization after any change;
 * only queues that declared `linkifier_url_template` take it (Zulip sends
 * the others nothing: they cannot read URL templates).
 */
function emitLinkifiers(ctx: AppContext, tx: Tx): void {
  const event = {
    type: 'realm_linkifiers',
    realm_linkifiers: allLinkifiers(ctx.db),
  } satisfies EventBody<'realm_linkifiers'>;
  tx.emit({
    type: 'realm_linkifiers',
    users: activeUserIds(ctx.db),
    payload: (queue) => (queue.options.capabilities.linkifier_url_template ? event : null),
  });
}

/**
 * Zulip's RealmFilter.full_clean, in its order: each field on its own, then
 * the pattern as a regular expression and the agreement of its groups with
 * the template's variables, then the pattern's uniqueness.
 */
function checkLinkifier(
  ctx: AppContext,
  linkifier: { pattern: string; urlTemplate: string },
  exceptId: number,
): void {
  const { pattern, urlTemplate } = linkifier;
  const errors = new FieldErrors();
  if (pattern === '') errors.add('pattern', BLANK_FIELD);
  const validTemplate = isValidUrlTemplate(urlTemplate);
  if (urlTemplate === '') errors.add('url_template', BLANK_FIELD);
  else if (!validTemplate) errors.add('url_template', 'Invalid URL template.');
  const checked = checkLinkifierPattern(pattern);
  if (checked.error !== null) {
    errors.add('__all__', `Bad regular expression: ${checked.error}`);
  } else if (validTemplate) {
    const variables = templateVariableNames(urlTemplate);
    const notInPattern = [...variables].filter((v) => !checked.groups.has(v)).sort();
    const notInTemplate = [...checked.groups].filter((g) => !variables.has(g)).sort();
    if (notInPattern.length > 0) {
      errors.add(
        '__all__',
        `Group '${notInPattern[0]}' in URL template is not present in linkifier pattern.`,
      );
    } else if (notInTemplate.length > 0) {
      errors.add(
        '__all__',
        `Group '${notInTemplate[0]}' in linkifier pattern is not present in URL template.`,
      );
    }
  }
  if (!errors.has('pattern') && otherLinkifierWithPattern(ctx.db, pattern, exceptId)) {
    errors.add('__all__', 'Realm filter with this Realm and Pattern already exists.');
  }
  errors.throwIfAny();
}

/** GET /realm/linkifiers: everyone may read them. */
export function listLinkifiers(ctx: AppContext): { linkifiers: ReturnType<typeof allLinkifiers> } {
  return { linkifiers: allLinkifiers(ctx.db) };
}

/**
 * GET /realm/filters: the pre-linkifier form, [pattern, URL, id] triples,
 * which zulip-js's `filters.retrieve` still asks for. Zulip dropped this
 * read at feature level 176 (realm/linkifiers replaced it); Hearth keeps
 * answering it with the URL templates as they are.
 */
export function listLegacyFilters(ctx: AppContext): { filters: [string, string, number][] } {
  return { filters: allLinkifiers(ctx.db).map((l) => [l.pattern, l.url_template, l.id]) };
}

/** POST /realm/filters (administrators): applies after every existing linkifier. */
export function addLinkifier(
  ctx: AppContext,
  actor: UserRow,
  input: { pattern: string; urlTemplate: string },
): { id: number } {
  requireRole(actor, 'admin');
  const linkifier = { pattern: input.pattern.trim(), urlTemplate: input.urlTemplate.trim() };
  return ctx.transaction((tx) => {
    checkLinkifier(ctx, linkifier, 0);
    const id = insertLinkifier(ctx.db, linkifier.pattern, linkifier.urlTemplate);
    emitLinkifiers(ctx, tx);
    return { id };
  });
}

/** PATCH /realm/filters/{filter_id} (administrators): its place in the order is kept. */
export function changeLinkifier(
  ctx: AppContext,
  actor: UserRow,
  id: number,
  input: { pattern: string; urlTemplate: string },
): Record<string, never> {
  requireRole(actor, 'admin');
  const linkifier = { pattern: input.pattern.trim(), urlTemplate: input.urlTemplate.trim() };
  ctx.transaction((tx) => {
    if (!linkifierById(ctx.db, id)) throw notFound();
    checkLinkifier(ctx, linkifier, id);
    updateLinkifier(ctx.db, id, linkifier.pattern, linkifier.urlTemplate);
    emitLinkifiers(ctx, tx);
  });
  return {};
}

/** DELETE /realm/filters/{filter_id} (administrators). */
export function removeLinkifier(
  ctx: AppContext,
  actor: UserRow,
  id: number,
): Record<string, never> {
  requireRole(actor, 'admin');
  ctx.transaction((tx) => {
    if (!linkifierById(ctx.db, id)) throw notFound();
    deleteLinkifier(ctx.db, id);
    emitLinkifiers(ctx, tx);
  });
  return {};
}

/**
 * PATCH /realm/linkifiers (administrators): the new order, naming every
 * linkifier exactly once. With no linkifiers at all nothing happens.
 */
export function reorderLinkifiers(
  ctx: AppContext,
  actor: UserRow,
  orderedIds: readonly number[],
): Record<string, never> {
  requireRole(actor, 'admin');
  const wanted = new Set(orderedIds);
  if (wanted.size < orderedIds.length) {
    throw badRequest('The ordered list must not contain duplicated linkifiers');
  }
  ctx.transaction((tx) => {
    const existing = allLinkifiers(ctx.db);
    if (existing.length !== wanted.size || existing.some((l) => !wanted.has(l.id))) {
      throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
    }
    if (existing.length === 0) return;
    for (const [order, id] of orderedIds.entries()) setLinkifierOrder(ctx.db, id, order);
    emitLinkifiers(ctx, tx);
  });
  return {};
}
