import { muteUser, unmuteUser } from '../../muted-users/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

const mutedUserId = p.int();

/** POST/DELETE /users/me/muted_users/{muted_user_id} */
export const mutedUserRoutes = [
  route({
    method: 'POST',
    path: '/users/me/muted_users/:muted_user_id(^\\d+)',
    api: '/users/me/muted_users/{muted_user_id}',
    params: { muted_user_id: mutedUserId },
    handler: (ctx, user, params) => muteUser(ctx, user, params.muted_user_id),
  }),
  route({
    method: 'DELETE',
    path: '/users/me/muted_users/:muted_user_id(^\\d+)',
    api: '/users/me/muted_users/{muted_user_id}',
    params: { muted_user_id: mutedUserId },
    handler: (ctx, user, params) => unmuteUser(ctx, user, params.muted_user_id),
  }),
];
