import { clientDeviceIdsOf } from '../db/queries/push-devices.js';
import type { StateProvider } from '../events/state-provider.js';

/**
 * POST /register's `devices` (feature level 468, replacing `push_devices`):
 * the user's registered devices by id. None has a push registration, since
 * Hearth refuses them, so every field is null.
 */
export const devicesState: StateProvider = {
  fetchTypes: ['device'],
  fetch: (ctx, user) => ({
    devices: Object.fromEntries(
      clientDeviceIdsOf(ctx.db, user.id).map((id) => [
        String(id),
        {
          push_key_id: null,
          push_token_id: null,
          pending_push_token_id: null,
          push_token_last_updated_timestamp: null,
          push_registration_error_code: null,
        },
      ]),
    ),
  }),
};
