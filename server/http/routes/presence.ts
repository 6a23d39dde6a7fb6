import { getRealmPresence, getUserPresence, updatePresence } from '../../presence/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** /users/me/presence, /realm/presence, /users/{user_id_or_email}/presence */
export const presenceRoutes = [
  route({
    method: 'POST',
    path: '/users/me/presence',
    api: '/users/me/presence',
    groupCommit: true,
    requires: 'human',
    params: {
      // Checked by the action, which words the error as Zulip does.
      status: p.str(),
      ping_only: p.bool().default(false),
      new_user_input: p.bool().default(false),
      slim_presence: p.bool().default(false),
      last_update_id: p.int().optional(),
      history_limit_days: p.int().optional(),
    },
    handler: (ctx, user, params) =>
      updatePresence(ctx, user, {
        status: params.status,
        pingOnly: params.ping_only,
        newUserInput: params.new_user_input,
        slimPresence: params.slim_presence,
        lastUpdateId: params.last_update_id,
        historyLimitDays: params.history_limit_days,
      }),
  }),
  route({
    method: 'GET',
    path: '/realm/presence',
    api: '/realm/presence',
    params: {},
    handler: (ctx, user) => getRealmPresence(ctx, user),
  }),
  route({
    method: 'GET',
    path: '/users/:user_id_or_email/presence',
    api: '/users/{user_id_or_email}/presence',
    params: { user_id_or_email: p.str() },
    handler: (ctx, user, params) => getUserPresence(ctx, user, params.user_id_or_email),
  }),
];
