import type { AppContext } from '../core/context.js';
import { missingArgument } from '../core/errors.js';
import {
  deletePushToken,
  insertPushToken,
  PushTokenKind,
  type PushTokenKindValue,
} from '../db/queries/push-devices.js';
import type { UserRow } from '../db/queries/users.js';
import { MAX_PUSH_TOKEN_LENGTH } from '../shared/limits.js';
import { requireRole } from '../shared/roles.js';
import {
  emptyOrInvalidToken,
  invalidApnsToken,
  invalidAppId,
  tokenDoesNotExist,
} from './errors.js';

export type PushTokenKindName = keyof typeof PushTokenKind;

/**
 * An APNs token is hex: pairs of hex digits, with ASCII whitespace allowed
 * between pairs (Python's bytes.fromhex, which Zulip uses to check it).
 */
const HEX_TOKEN = /^[ \t\n\r\v\f]*(?:[0-9a-fA-F]{2}[ \t\n\r\v\f]*)*$/;
/** Apple bundle identifiers: letters, digits, dots and hyphens. */
const APP_ID = /^[.a-zA-Z0-9-]+$/;

/**
 * An APNs app id as Zulip's ApnsAppId reads it: checked while the
 * parameters are read, before `token` (the route's parser calls it).
 */
export function checkApnsAppId(appid: string): string {
  if (!APP_ID.test(appid)) throw invalidAppId();
  return appid;
}

function checkToken(token: string, kind: PushTokenKindValue): void {
  if (token === '' || [...token].length > MAX_PUSH_TOKEN_LENGTH) throw emptyOrInvalidToken();
  if (kind === PushTokenKind.apns && !HEX_TOKEN.test(token)) throw invalidApnsToken();
}

export interface AddPushTokenInput {
  token: string;
  /** APNs only: the app's bundle id (required since feature level 223). */
  appid?: string | undefined;
}

/**
 * POST /users/me/android_gcm_reg_id and /users/me/apns_device_token: keeps
 * the token for the user, as Zulip does even when it has no push service.
 * Registering a token again changes nothing. No event: clients do not see
 * push tokens in their state.
 */
export function addPushToken(
  ctx: AppContext,
  user: UserRow,
  kind: PushTokenKindName,
  input: AddPushTokenInput,
): Record<string, never> {
  requireRole(user, 'human');
  const kindValue = PushTokenKind[kind];
  let iosAppId: string | null = null;
  if (kind === 'apns') {
    if (input.appid === undefined) throw missingArgument('appid');
    iosAppId = checkApnsAppId(input.appid);
  }
  const token = input.token;
  checkToken(token, kindValue);
  ctx.transaction(() => {
    insertPushToken(ctx.db, {
      user_id: user.id,
      kind: kindValue,
      token,
      ios_app_id: iosAppId,
      last_updated: Math.floor(ctx.now() / 1000),
    });
  });
  return {};
}

/** DELETE /users/me/android_gcm_reg_id and /users/me/apns_device_token: the caller's own token only. */
export function removePushToken(
  ctx: AppContext,
  user: UserRow,
  kind: PushTokenKindName,
  token: string,
): Record<string, never> {
  requireRole(user, 'human');
  const kindValue = PushTokenKind[kind];
  checkToken(token, kindValue);
  ctx.transaction(() => {
    if (deletePushToken(ctx.db, user.id, kindValue, token) === 0) throw tokenDoesNotExist();
  });
  return {};
}
