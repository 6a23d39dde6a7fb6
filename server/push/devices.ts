import type { AppContext } from '../core/context.js';
import { missingArgument } from '../core/errors.js';
import {
  clientDeviceExists,
  deleteClientDevice,
  insertClientDevice,
} from '../db/queries/push-devices.js';
import type { UserRow } from '../db/queries/users.js';
import { requireRole } from '../shared/roles.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { invalidDeviceId, pushServiceNotConfigured } from './errors.js';

/**
 * POST /register_client_device (feature level 468): a logged-in device. The
 * mobile apps call it at every account load, so it always succeeds; the
 * user's clients learn of it through a `device` event.
 */
export function registerClientDevice(ctx: AppContext, user: UserRow): { device_id: number } {
  const deviceId = ctx.transaction((tx) => {
    const id = insertClientDevice(ctx.db, user.id, Math.floor(ctx.now() / 1000));
    tx.emit({
      type: 'device',
      users: [user.id],
      payload: { type: 'device', op: 'add', device_id: id } satisfies EventBody<'device', 'add'>,
    });
    return id;
  });
  return { device_id: deviceId };
}

/** POST /remove_client_device (feature level 470): at logout; only the caller's own devices. */
export function removeClientDevice(
  ctx: AppContext,
  user: UserRow,
  deviceId: number | undefined,
): Record<string, never> {
  if (deviceId === undefined) throw missingArgument('device_id');
  ctx.transaction((tx) => {
    if (!clientDeviceExists(ctx.db, deviceId, user.id)) throw invalidDeviceId();
    deleteClientDevice(ctx.db, deviceId);
    tx.emit({
      type: 'device',
      users: [user.id],
      payload: { type: 'device', op: 'remove', device_id: deviceId } satisfies EventBody<
        'device',
        'remove'
      >,
    });
  });
  return {};
}

/**
 * What POST /mobile_push/register sends (feature level 468): a push key, a
 * token encrypted for the push bouncer, or both. Parsed for the wording of
 * its errors; never stored.
 */
export interface PushDeviceRegistration {
  deviceId: number | undefined;
  tokenKind?: 'fcm' | 'apns';
  pushKey?: string;
  pushKeyId?: number;
  tokenId?: string;
  bouncerPublicKey?: string;
  encryptedPushRegistration?: string;
}

/**
 * POST /mobile_push/register: end-to-end-encrypted push needs Zulip's push
 * bouncer, which Hearth cannot reach (it has no route to the internet), so it
 * answers as a Zulip server without the push service does. The mobile apps
 * ask only when the server reports push notifications enabled, which Hearth
 * never does (`push_notifications_enabled` is false).
 */
export function registerPushDevice(
  _ctx: AppContext,
  user: UserRow,
  registration: PushDeviceRegistration,
): never {
  requireRole(user, 'human');
  if (registration.deviceId === undefined) throw missingArgument('device_id');
  throw pushServiceNotConfigured();
}
