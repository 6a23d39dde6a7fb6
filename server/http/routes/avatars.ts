import {
  avatarRedirect,
  hearthIconPng,
  removeOwnAvatar,
  setOwnAvatar,
  unknownUserAvatarPng,
  userAvatarImage,
} from '../../avatars/index.js';
import { outsideApi, undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { publicRoute, route } from '../route.js';

/** One's own avatar, and the avatar and organization pictures served at the site root. */
export const avatarRoutes = [
  ...[false, true].map((medium) =>
    route({
      method: 'GET',
      path: medium ? '/avatar/:email_or_id/medium' : '/avatar/:email_or_id',
      api: outsideApi(WHY.files),
      atRoot: true,
      params: { email_or_id: p.str() },
      handler: (ctx, user, params) => avatarRedirect(ctx, user, params.email_or_id, medium),
    }),
  ),
  route({
    method: 'POST',
    path: '/users/me/avatar',
    api: undescribed(WHY.undescribed),
    params: {},
    handler: (ctx, user, _params, request) => setOwnAvatar(ctx, user, request.files),
  }),
  route({
    method: 'DELETE',
    path: '/users/me/avatar',
    api: undescribed(WHY.undescribed),
    params: {},
    handler: (ctx, user) => removeOwnAvatar(ctx, user),
  }),
  publicRoute({
    method: 'GET',
    path: '/user_avatars/:file_name',
    api: outsideApi(WHY.files),
    atRoot: true,
    auth: 'none',
    rateLimitExempt: true,
    params: { file_name: p.str() },
    handler: (ctx, _user, params) => userAvatarImage(ctx, params.file_name),
  }),
  ...['/static/images/logo/hearth-icon.png', '/static/images/logo/hearth-logo.png'].map((path) =>
    publicRoute({
      method: 'GET',
      path,
      api: outsideApi(WHY.files),
      atRoot: true,
      auth: 'none',
      rateLimitExempt: true,
      params: {},
      handler: () => hearthIconPng(),
    }),
  ),
  // The unknown-user picture; also the default for an address /avatar/ finds no user by.
  ...['/static/images/unknown-user-avatar.png', '/static/images/default-avatar.png'].map((path) =>
    publicRoute({
      method: 'GET',
      path,
      api: outsideApi(WHY.files),
      atRoot: true,
      auth: 'none',
      rateLimitExempt: true,
      params: {},
      handler: () => unknownUserAvatarPng(),
    }),
  ),
];
