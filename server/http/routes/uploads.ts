import {
  listAttachments,
  removeAttachment,
  serveTemporaryUpload,
  serveThumbnail,
  serveUpload,
  temporaryUploadUrl,
  uploadFile,
} from '../../uploads/index.js';
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
    params: {},
    handler: (ctx, user, _params, request) => uploadFile(ctx, user, request.files),
  }),
  route({
    method: 'GET',
    path: '/user_uploads/:realm_id(^\\d+)/*',
    params: rest,
    handler: (ctx, user, params) => temporaryUploadUrl(ctx, user, params.realm_id, params['*']),
  }),
  route({
    method: 'GET',
    path: '/attachments',
    params: {},
    handler: (ctx, user) => listAttachments(ctx, user),
  }),
  route({
    method: 'DELETE',
    path: '/attachments/:attachment_id(^\\d+)',
    params: { attachment_id: p.int() },
    handler: (ctx, user, params) => removeAttachment(ctx, user, params.attachment_id),
  }),
  route({
    method: 'GET',
    path: '/user_uploads/:realm_id(^\\d+)/*',
    atRoot: true,
    params: rest,
    handler: (ctx, user, params) => serveUpload(ctx, user, params.realm_id, params['*']),
  }),
  route({
    method: 'GET',
    path: '/user_uploads/download/:realm_id(^\\d+)/*',
    atRoot: true,
    params: rest,
    handler: (ctx, user, params) =>
      serveUpload(ctx, user, params.realm_id, params['*'], { download: true }),
  }),
  route({
    method: 'GET',
    path: '/user_uploads/thumbnail/*',
    atRoot: true,
    params: { '*': p.str() },
    handler: (ctx, user, params) => serveThumbnail(ctx, user, params['*']),
  }),
  publicRoute({
    method: 'GET',
    path: '/user_uploads/temporary/:token/:filename',
    atRoot: true,
    auth: 'none',
    params: { token: p.str(), filename: p.str() },
    handler: (ctx, _user, params) => serveTemporaryUpload(ctx, params.token, params.filename),
  }),
];
