import { devFetchApiKey, devListUsers, fetchApiKey, jwtFetchApiKey } from '../../auth/index.js';
import { serverSettings } from '../../realm/index.js';
import { undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { publicRoute } from '../route.js';

export const serverRoutes = [
  publicRoute({
    method: 'GET',
    path: '/server_settings',
    api: '/server_settings',
    auth: 'none',
    params: {},
    handler: (ctx) => serverSettings(ctx),
  }),
  publicRoute({
    method: 'POST',
    path: '/fetch_api_key',
    api: '/fetch_api_key',
    auth: 'none',
    params: { username: p.str(), password: p.str() },
    handler: (ctx, _user, { username, password }, info) =>
      fetchApiKey(ctx, ctx.rateLimiter, username, password, info.ip),
  }),
  publicRoute({
    method: 'POST',
    path: '/jwt/fetch_api_key',
    api: '/jwt/fetch_api_key',
    differences: {
      'token is optional': WHY.viewChecksAbsence,
    },
    auth: 'none',
    // Zulip's order; a missing token is refused as an empty one ("No JSON web token ...").
    params: { include_profile: p.bool().default(false), token: p.str().default('') },
    handler: (ctx, _user, { token, include_profile }, info) =>
      jwtFetchApiKey(ctx, token, include_profile, info.ip),
  }),
  publicRoute({
    method: 'POST',
    path: '/dev_fetch_api_key',
    api: '/dev_fetch_api_key',
    auth: 'none',
    params: { username: p.str() },
    handler: (ctx, _user, { username }) => devFetchApiKey(ctx, username),
  }),
  publicRoute({
    method: 'GET',
    path: '/dev_list_users',
    api: undescribed(WHY.undescribed),
    auth: 'none',
    params: {},
    handler: (ctx) => devListUsers(ctx),
  }),
];
