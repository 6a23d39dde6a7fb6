/** Navigation views: each user's pinned and hidden views of the left sidebar, their `navigation_view` events and state. */

export { navigationViewsState } from './state.js';
export {
  addNavigationView,
  changeNavigationView,
  listNavigationViews,
  removeNavigationView,
} from './views.js';
