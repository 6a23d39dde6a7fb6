import type { StateProvider } from './types.js';

/** subscriptions, unsubscribed, never_subscribed (fetch type "subscription") and streams ("stream"). */
export const channelStateProviders: StateProvider[] = [];
