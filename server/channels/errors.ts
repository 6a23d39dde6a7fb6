import { ApiError } from '../core/errors.js';

/* Errors that several channel operations answer with the same words. */

export const invalidParameters = () => new ApiError('Invalid parameters');
export const webPublicChannelsDisabled = () => new ApiError('Web-public channels are not enabled.');
export const defaultChannelCannotBePrivate = () =>
  new ApiError('A default channel cannot be private.');
export const cannotPostInChannel = () =>
  new ApiError('You do not have permission to post in this channel.');
