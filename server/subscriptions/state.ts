import { listChannelsJson } from '../channels/index.js';
import type { StateProvider } from '../events/state-provider.js';
import { isAdmin } from '../shared/roles.js';
import { gatherSubscriptions } from './list.js';

/** Archived channels only reach clients that declared they can show them. */
const subscriptionState: StateProvider = {
  fetchTypes: ['subscription'],
  fetch: (ctx, user, options) =>
    gatherSubscriptions(ctx, user, {
      includeSubscribers: options.includeSubscribers !== 'false',
      includeArchived: options.capabilities.archived_channels,
    }),
};

/** Zulip's register `streams`: GET /streams with web-public channels, and every channel for administrators. */
const streamState: StateProvider = {
  fetchTypes: ['stream'],
  fetch: (ctx, user, options) =>
    listChannelsJson(ctx, user, {
      includePublic: true,
      includeWebPublic: true,
      includeSubscribed: true,
      excludeArchived: !options.capabilities.archived_channels,
      includeAll: isAdmin(user),
      includeDefault: false,
      includeOwnerSubscribed: false,
      includeCanAccessContent: false,
    }),
};

/** subscriptions, unsubscribed, never_subscribed (fetch type "subscription") and streams ("stream"). */
export const channelStateProviders: StateProvider[] = [subscriptionState, streamState];
