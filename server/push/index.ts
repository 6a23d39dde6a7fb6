/**
 * Push notification registrations: legacy FCM/APNs tokens, logged-in client
 * devices and the end-to-end-encrypted registration. Hearth sends no push
 * notifications; it keeps what clients register and says so.
 */
export {
  type PushDeviceRegistration,
  registerClientDevice,
  registerPushDevice,
  removeClientDevice,
} from './devices.js';
export { devicesState } from './state.js';
export {
  type AddPushTokenInput,
  addPushToken,
  checkApnsAppId,
  type PushTokenKindName,
  removePushToken,
} from './tokens.js';
