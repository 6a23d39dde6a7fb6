import type { AppContext, Tx } from '../core/context.js';
import { BLANK_FIELD, badRequest, FieldErrors } from '../core/errors.js';
import {
  allPlaygrounds,
  deletePlayground,
  insertPlayground,
  playgroundById,
  playgroundExists,
} from '../db/queries/realm-playgrounds.js';
import { activeUserIds, type UserRow } from '../db/queries/users.js';
import { MAX_PYGMENTS_LANGUAGE_LENGTH } from '../shared/limits.js';
import { loadRealm, setRealmSetting } from '../shared/realm.js';
import { requireRole } from '../shared/roles.js';
import {
  isValidUrlTemplate,
  isWebUrlTemplate,
  templateVariableNames,
} from '../shared/url-templates.js';
import type { EventBody } from '../shared/zulip-api/index.js';

/**
 * Language names are not limited to Pygments' lexers (a playground may serve
 * a custom language), only to these characters. Like Zulip's pattern, one
 * trailing newline passes (it is stripped afterwards).
 */
const LANGUAGE_CHARACTERS = /^[ a-zA-Z0-9_+,\-./#]*\n?$/;

/** The whole list to everyone in the organization, after any change. */
function emitPlaygrounds(ctx: AppContext, tx: Tx): void {
  tx.emit({
    type: 'realm_playgrounds',
    users: activeUserIds(ctx.db),
    payload: {
      type: 'realm_playgrounds',
      realm_playgrounds: allPlaygrounds(ctx.db),
    } satisfies EventBody<'realm_playgrounds'>,
  });
}

/**
 * Zulip reports a playground's validation the way Django does: `msg` is the
 * first message, `errors` maps each field (or `__all__`) to its messages.
 */
function checkNewPlayground(
  ctx: AppContext,
  playground: { name: string; pygmentsLanguage: string; urlTemplate: string },
): void {
  const errors = new FieldErrors();
  const add = (field: string, msg: string) => errors.add(field, msg);
  const { name, pygmentsLanguage, urlTemplate } = playground;
  // Zulip checks only the syntax; Hearth also keeps links to http and https
  // (a playground link is clicked in every client), with the same message.
  const wellFormed = isValidUrlTemplate(urlTemplate);
  if (urlTemplate === '') add('url_template', BLANK_FIELD);
  else if (!wellFormed || !isWebUrlTemplate(urlTemplate)) {
    add('url_template', 'Invalid URL template.');
  }
  if (name === '') add('name', BLANK_FIELD);
  if (pygmentsLanguage === '') add('pygments_language', BLANK_FIELD);
  if (wellFormed) {
    const variables = templateVariableNames(urlTemplate);
    if (!variables.has('code')) {
      add('__all__', 'Missing the required variable "code" in the URL template');
    } else if (variables.size !== 1) {
      add('__all__', '"code" should be the only variable present in the URL template');
    }
  }
  // Uniqueness is checked only when both fields it covers passed their own checks.
  if (
    !errors.has('name') &&
    !errors.has('pygments_language') &&
    playgroundExists(ctx.db, pygmentsLanguage, name)
  ) {
    add('__all__', 'Realm playground with this Realm, Pygments language and Name already exists.');
  }
  errors.throwIfAny();
}

/** POST /realm/playgrounds (administrators). */
export function addPlayground(
  ctx: AppContext,
  actor: UserRow,
  input: { name: string; pygmentsLanguage: string; urlTemplate: string },
): { id: number } {
  requireRole(actor, 'admin');
  if ([...input.pygmentsLanguage].length > MAX_PYGMENTS_LANGUAGE_LENGTH) {
    throw badRequest(
      `pygments_language is too long (limit: ${MAX_PYGMENTS_LANGUAGE_LENGTH} characters)`,
    );
  }
  if (!LANGUAGE_CHARACTERS.test(input.pygmentsLanguage)) {
    throw badRequest('Invalid characters in pygments language');
  }
  const playground = {
    name: input.name.trim(),
    pygmentsLanguage: input.pygmentsLanguage.trim(),
    urlTemplate: input.urlTemplate.trim(),
  };
  return ctx.transaction((tx) => {
    checkNewPlayground(ctx, playground);
    const id = insertPlayground(ctx.db, {
      name: playground.name,
      pygments_language: playground.pygmentsLanguage,
      url_template: playground.urlTemplate,
    });
    emitPlaygrounds(ctx, tx);
    return { id };
  });
}

/**
 * DELETE /realm/playgrounds/{playground_id} (administrators). A default
 * code-block language that only this playground's language matched is
 * cleared, as Zulip does.
 */
export function removePlayground(
  ctx: AppContext,
  actor: UserRow,
  playgroundId: number,
): Record<string, never> {
  requireRole(actor, 'admin');
  ctx.transaction((tx) => {
    const playground = playgroundById(ctx.db, playgroundId);
    if (!playground) throw badRequest('Invalid playground');
    if (loadRealm(ctx).settings.default_code_block_language === playground.pygments_language) {
      setRealmSetting(ctx, tx, 'default_code_block_language', '');
    }
    deletePlayground(ctx.db, playground.id);
    emitPlaygrounds(ctx, tx);
  });
  return {};
}
