import {
  listAttachments,
  removeAttachment,
  serveTemporaryUpload,
  serveThumbnail,
  serveUpload,
  temporaryUploadUrl,
  uploadFile,
} from '../../uploads/index.js';
import { outsideApi, WHY } from '../api-link.js';
import { p } from '../params.js';
import { publicRoute, route } from '../route.js';

/** The path after /user_uploads/{realm_id}/ (Fastify's wildcard parameter). */
const rest = { realm_id: p.str(), '*': p.str() };

/**
 * POST /user_uploads, GET /attachments, DELETE /attachments/{id}, the
 * temporary-URL endpoint, and the files themselves at the site root
 * (/user_uploads/..., as Zulip serves them). The chat's <img> and links
 * send no Authorization header: its browser session stands for the user.
 */
export const uploadRoutes = [
  route({
    method: 'POST',
    path: '/user_uploads',
    api: '/user_uploads',
    differences: {
      'filename is not declared': WHY.filePart,
    },
    params: {},
    handler: (ctx, user, _params, request) => uploadFile(ctx, user, request.files),
  }),
  route({
    method: 'GET',
    path: '/user_uploads/:realm_id(^\\d+)/*',
    api: '/user_uploads/{realm_id_str}/{filename}',
    differences: {
      'realm_id is string': WHY.pathText,
    },
    params: rest,
    handler: (ctx, user, params) => temporaryUploadUrl(ctx, user, params.realm_id, params['*']),
  }),
  route({
    method: 'GET',
    path: '/attachments',
    api: '/attachments',
    params: {},
    handler: (ctx, user) => listAttachments(ctx, user),
  }),
  route({
    method: 'DELETE',
    path: '/attachments/:attachment_id(^\\d+)',
    api: '/attachments/{attachment_id}',
    params: { attachment_id: p.int() },
    handler: (ctx, user, params) => removeAttachment(ctx, user, params.attachment_id),
  }),
  route({
    method: 'GET',
    path: '/user_uploads/:realm_id(^\\d+)/*',
    api: outsideApi(WHY.files),
    atRoot: true,
    params: rest,
    handler: (ctx, user, params) => serveUpload(ctx, user, params.realm_id, params['*']),
  }),
  route({
    method: 'GET',
    path: '/user_uploads/download/:realm_id(^\\d+)/*',
    api: outsideApi(WHY.files),
    atRoot: true,
    params: rest,
    handler: (ctx, user, params) =>
      serveUpload(ctx, user, params.realm_id, params['*'], { download: true }),
  }),
  route({
    method: 'GET',
    path: '/user_uploads/thumbnail/*',
    api: outsideApi(WHY.files),
    atRoot: true,
    params: { '*': p.str() },
    handler: (ctx, user, params) => serveThumbnail(ctx, user, params['*']),
  }),
  publicRoute({
    method: 'GET',
    path: '/user_uploads/temporary/:token/:filename',
    api: outsideApi(WHY.files),
    atRoot: true,
    auth: 'none',
    params: { token: p.str(), filename: p.str() },
    handler: (ctx, _user, params) => serveTemporaryUpload(ctx, params.token, params.filename),
  }),
];
