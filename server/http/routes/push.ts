import {
  addPushToken,
  checkApnsAppId,
  registerClientDevice,
  registerPushDevice,
  removeClientDevice,
  removePushToken,
} from '../../push/index.js';
import { undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

// The legacy token routes are human_users_only in Zulip: bots are refused
// before the parameters are read.

/** Push registrations: legacy tokens, client devices, the E2EE registration. */
export const pushRoutes = [
  route({
    method: 'POST',
    path: '/users/me/android_gcm_reg_id',
    api: '/users/me/android_gcm_reg_id',
    requires: 'human',
    params: { token: p.str() },
    handler: (ctx, user, params) => addPushToken(ctx, user, 'fcm', { token: params.token }),
  }),
  route({
    method: 'DELETE',
    path: '/users/me/android_gcm_reg_id',
    api: '/users/me/android_gcm_reg_id',
    requires: 'human',
    params: { token: p.str() },
    handler: (ctx, user, params) => removePushToken(ctx, user, 'fcm', params.token),
  }),
  route({
    method: 'POST',
    path: '/users/me/apns_device_token',
    api: '/users/me/apns_device_token',
    requires: 'human',
    // Zulip's view reads them alphabetically: appid (and its form) first.
    params: { appid: p.str().refine(checkApnsAppId), token: p.str() },
    handler: (ctx, user, params) =>
      addPushToken(ctx, user, 'apns', { token: params.token, appid: params.appid }),
  }),
  route({
    method: 'DELETE',
    path: '/users/me/apns_device_token',
    api: '/users/me/apns_device_token',
    requires: 'human',
    params: { token: p.str() },
    handler: (ctx, user, params) => removePushToken(ctx, user, 'apns', params.token),
  }),
  route({
    method: 'POST',
    path: '/register_client_device',
    api: undescribed(WHY.newerPush),
    params: {},
    handler: (ctx, user) => registerClientDevice(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/remove_client_device',
    api: undescribed(WHY.newerPush),
    params: { device_id: p.int() },
    handler: (ctx, user, params) => removeClientDevice(ctx, user, params.device_id),
  }),
  route({
    method: 'POST',
    path: '/mobile_push/register',
    api: '/mobile_push/register',
    differences: {
      'device_id is not in the description': WHY.newerPush,
      'token_kind is optional': WHY.newerPush,
      'push_key is not in the description': WHY.newerPush,
      'push_key_id is not in the description': WHY.newerPush,
      'token_id is not in the description': WHY.newerPush,
      'bouncer_public_key is optional': WHY.newerPush,
      'encrypted_push_registration is optional': WHY.newerPush,
      'push_account_id is not declared': WHY.newerPush,
      'push_public_key is not declared': WHY.newerPush,
    },
    params: {
      device_id: p.int().optional(),
      token_kind: p.oneOf(['fcm', 'apns']).optional(),
      push_key: p.str().optional(),
      push_key_id: p.int({ min: 0, max: 2 ** 32 - 1 }).optional(),
      token_id: p.str().optional(),
      bouncer_public_key: p.str().optional(),
      encrypted_push_registration: p.str().optional(),
    },
    handler: (ctx, user, params) =>
      registerPushDevice(ctx, user, {
        deviceId: params.device_id,
        tokenKind: params.token_kind,
        pushKey: params.push_key,
        pushKeyId: params.push_key_id,
        tokenId: params.token_id,
        bouncerPublicKey: params.bouncer_public_key,
        encryptedPushRegistration: params.encrypted_push_registration,
      }),
  }),
];
