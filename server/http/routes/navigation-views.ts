import { badRequest } from '../../core/errors.js';
import {
  addNavigationView,
  changeNavigationView,
  listNavigationViews,
  removeNavigationView,
} from '../../navigation-views/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** Stripped and not empty (Zulip's StringConstraints(strip_whitespace=True, min_length=1)). */
const nonBlank = () =>
  p.str().refine((value, name) => {
    const stripped = value.trim();
    if (stripped === '') throw badRequest(`${name} cannot be blank`);
    return stripped;
  });

/** /navigation_views; a fragment may hold slashes (narrow/is/starred). */
export const navigationViewRoutes = [
  route({
    method: 'GET',
    path: '/navigation_views',
    api: '/navigation_views',
    params: {},
    handler: (ctx, user) => listNavigationViews(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/navigation_views',
    api: '/navigation_views',
    params: { fragment: nonBlank(), is_pinned: p.bool(), name: nonBlank().optional() },
    handler: (ctx, user, params) =>
      addNavigationView(ctx, user, {
        fragment: params.fragment,
        isPinned: params.is_pinned,
        name: params.name,
      }),
  }),
  route({
    method: 'PATCH',
    path: '/navigation_views/*',
    api: '/navigation_views/{fragment}',
    params: { '*': nonBlank(), is_pinned: p.bool().optional(), name: nonBlank().optional() },
    handler: (ctx, user, params) =>
      changeNavigationView(ctx, user, params['*'], {
        isPinned: params.is_pinned,
        name: params.name,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/navigation_views/*',
    api: '/navigation_views/{fragment}',
    params: { '*': nonBlank() },
    handler: (ctx, user, params) => removeNavigationView(ctx, user, params['*']),
  }),
];
