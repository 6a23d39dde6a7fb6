import { addPlayground, removePlayground } from '../../playgrounds/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** /realm/playgrounds */
export const playgroundRoutes = [
  route({
    method: 'POST',
    path: '/realm/playgrounds',
    api: '/realm/playgrounds',
    requires: 'admin',
    params: { name: p.str(), pygments_language: p.str(), url_template: p.str() },
    handler: (ctx, user, params) =>
      addPlayground(ctx, user, {
        name: params.name,
        pygmentsLanguage: params.pygments_language,
        urlTemplate: params.url_template,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/realm/playgrounds/:playground_id(^\\d+)',
    api: '/realm/playgrounds/{playground_id}',
    requires: 'admin',
    params: { playground_id: p.int() },
    handler: (ctx, user, params) => removePlayground(ctx, user, params.playground_id),
  }),
];
