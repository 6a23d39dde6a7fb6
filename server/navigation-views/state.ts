import type { StateProvider } from '../events/state-provider.js';
import { listNavigationViews } from './views.js';

/** POST /register's `navigation_views`: the user's own. */
export const navigationViewsState: StateProvider = {
  fetchTypes: ['navigation_views'],
  fetch: (ctx, user) => listNavigationViews(ctx, user),
};
