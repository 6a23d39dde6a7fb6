import {
  deleteRealmExport,
  getExportConsents,
  getRealmExports,
  requestRealmExport,
  serveRealmExport,
} from '../../portability/index.js';
import { outsideApi, undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { publicRoute, route } from '../route.js';

/** /export/realm: the organization's data exports (Zulip's format), and their downloads. */
export const exportRoutes = [
  route({
    method: 'GET',
    path: '/export/realm',
    api: '/export/realm',
    params: {},
    handler: (ctx, user) => getRealmExports(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/export/realm',
    api: '/export/realm',
    params: { export_type: p.int().default(1) },
    handler: (ctx, user, params) => requestRealmExport(ctx, user, params.export_type),
  }),
  route({
    method: 'DELETE',
    path: '/export/realm/:export_id(^\\d+)',
    api: undescribed(WHY.undescribed),
    params: { export_id: p.int() },
    handler: (ctx, user, params) => deleteRealmExport(ctx, user, params.export_id),
  }),
  route({
    method: 'GET',
    path: '/export/realm/consents',
    api: '/export/realm/consents',
    params: {},
    handler: (ctx, user) => getExportConsents(ctx, user),
  }),
  publicRoute({
    method: 'GET',
    path: '/exports/realm/:folder/:file_name',
    api: outsideApi(WHY.files),
    atRoot: true,
    auth: 'none',
    params: { folder: p.str(), file_name: p.str() },
    handler: (ctx, _user, params) => serveRealmExport(ctx, params.folder, params.file_name),
  }),
];
