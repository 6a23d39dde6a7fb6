import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import {
  deleteNavigationView,
  insertNavigationView,
  type NavigationViewRow,
  navigationView,
  navigationViewNamed,
  navigationViewsOf,
  updateNavigationView,
} from '../db/queries/navigation-views.js';
import type { UserRow } from '../db/queries/users.js';
import type { EventBody, EventFields, NavigationView } from '../shared/zulip-api/index.js';

/** The web app's own views, which keep their names (Zulip's BUILT_IN_VIEW_FRAGMENTS). */
const BUILT_IN_VIEW_FRAGMENTS = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'scheduled',
  'reminders',
]);

const alreadyExists = () => badRequest('Navigation view already exists.');

const format = (view: NavigationViewRow): NavigationView => ({
  fragment: view.fragment,
  is_pinned: view.is_pinned === 1,
  name: view.name,
});

/** Only the user's own queues hear of their views. */
function emit(tx: Tx, user: UserRow, payload: EventFields<'navigation_view'>): void {
  tx.emit({
    type: 'navigation_view',
    users: [user.id],
    payload: { type: 'navigation_view', ...payload } satisfies EventBody<'navigation_view'>,
  });
}

function access(ctx: AppContext, user: UserRow, fragment: string): NavigationViewRow {
  const view = navigationView(ctx.db, user.id, fragment);
  if (!view) throw new ApiError('Navigation view does not exist.', { status: 404 });
  return view;
}

/** GET /navigation_views and register's `navigation_views`. */
export const listNavigationViews = (ctx: AppContext, user: UserRow) => ({
  navigation_views: navigationViewsOf(ctx.db, user.id).map(format),
});

/** POST /navigation_views: a built-in view's setting, or a named view of one's own. */
export function addNavigationView(
  ctx: AppContext,
  user: UserRow,
  input: { fragment: string; isPinned: boolean; name: string | undefined },
): Record<string, never> {
  if (BUILT_IN_VIEW_FRAGMENTS.has(input.fragment)) {
    if (input.name !== undefined) throw badRequest('Built-in views cannot have a custom name.');
  } else if (!input.name) {
    throw badRequest('Custom views must have a valid name.');
  }
  ctx.transaction((tx) => {
    if (navigationView(ctx.db, user.id, input.fragment)) throw alreadyExists();
    if (input.name !== undefined && navigationViewNamed(ctx.db, user.id, input.name)) {
      throw alreadyExists();
    }
    const view = {
      fragment: input.fragment,
      is_pinned: input.isPinned ? 1 : 0,
      name: input.name ?? null,
    };
    insertNavigationView(ctx.db, user.id, view);
    emit(tx, user, { op: 'add', navigation_view: format(view) });
  });
  return {};
}

/** PATCH /navigation_views/{fragment}: pin or unpin, rename one's own. */
export function changeNavigationView(
  ctx: AppContext,
  user: UserRow,
  fragment: string,
  input: { isPinned: boolean | undefined; name: string | undefined },
): Record<string, never> {
  if (BUILT_IN_VIEW_FRAGMENTS.has(fragment) && input.name !== undefined) {
    throw badRequest('Built-in views cannot have a custom name.');
  }
  ctx.transaction((tx) => {
    if (input.name !== undefined && navigationViewNamed(ctx.db, user.id, input.name)) {
      throw alreadyExists();
    }
    const view = access(ctx, user, fragment);
    const data: Record<string, unknown> = {};
    if (input.name !== undefined) data.name = input.name;
    if (input.isPinned !== undefined) data.is_pinned = input.isPinned;
    updateNavigationView(ctx.db, user.id, {
      fragment,
      is_pinned: input.isPinned === undefined ? view.is_pinned : input.isPinned ? 1 : 0,
      name: input.name ?? view.name,
    });
    emit(tx, user, { op: 'update', fragment, data });
  });
  return {};
}

/** DELETE /navigation_views/{fragment}. */
export function removeNavigationView(
  ctx: AppContext,
  user: UserRow,
  fragment: string,
): Record<string, never> {
  ctx.transaction((tx) => {
    access(ctx, user, fragment);
    deleteNavigationView(ctx.db, user.id, fragment);
    emit(tx, user, { op: 'remove', fragment });
  });
  return {};
}
