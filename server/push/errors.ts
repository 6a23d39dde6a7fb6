import { ApiError, badRequest } from '../core/errors.js';

/** Zulip's messages for push registrations (zerver/lib/push_notifications.py and friends). */
export const emptyOrInvalidToken = () => badRequest('Empty or invalid length token');
export const invalidApnsToken = () => badRequest('Invalid APNS token');
export const invalidAppId = () => badRequest('Invalid app ID');
export const tokenDoesNotExist = () => badRequest('Token does not exist');
export const invalidDeviceId = () => badRequest('Invalid `device_id`');
export const pushServiceNotConfigured = () =>
  new ApiError('Server is not configured to use push notification service.', {
    code: 'PUSH_SERVICE_NOT_CONFIGURED',
  });
