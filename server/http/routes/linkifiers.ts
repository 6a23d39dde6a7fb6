import { z } from 'zod';
import {
  addLinkifier,
  changeLinkifier,
  listLegacyFilters,
  listLinkifiers,
  removeLinkifier,
  reorderLinkifiers,
} from '../../linkifiers/index.js';
import { undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** /realm/linkifiers and /realm/filters (Zulip kept the old name for writes). */
export const linkifierRoutes = [
  route({
    method: 'GET',
    path: '/realm/linkifiers',
    api: '/realm/linkifiers',
    params: {},
    handler: (ctx) => listLinkifiers(ctx),
  }),
  route({
    method: 'PATCH',
    path: '/realm/linkifiers',
    api: '/realm/linkifiers',
    params: { ordered_linkifier_ids: p.json(z.array(z.int())) },
    handler: (ctx, user, params) => reorderLinkifiers(ctx, user, params.ordered_linkifier_ids),
  }),
  route({
    method: 'GET',
    path: '/realm/filters',
    api: undescribed(WHY.legacyUrl),
    params: {},
    handler: (ctx) => listLegacyFilters(ctx),
  }),
  route({
    method: 'POST',
    path: '/realm/filters',
    api: '/realm/filters',
    params: { pattern: p.str(), url_template: p.str() },
    handler: (ctx, user, params) =>
      addLinkifier(ctx, user, { pattern: params.pattern, urlTemplate: params.url_template }),
  }),
  route({
    method: 'PATCH',
    path: '/realm/filters/:filter_id(^\\d+)',
    api: '/realm/filters/{filter_id}',
    params: { filter_id: p.int(), pattern: p.str(), url_template: p.str() },
    handler: (ctx, user, params) =>
      changeLinkifier(ctx, user, params.filter_id, {
        pattern: params.pattern,
        urlTemplate: params.url_template,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/realm/filters/:filter_id(^\\d+)',
    api: '/realm/filters/{filter_id}',
    params: { filter_id: p.int() },
    handler: (ctx, user, params) => removeLinkifier(ctx, user, params.filter_id),
  }),
];
