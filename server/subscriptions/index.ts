/** Subscribing and unsubscribing (also others), subscription properties, POST /channels/create. */
export { leavePrivateChannelsHiddenFromOwner } from './bot-owner.js';
export { createChannel } from './create-channel.js';
export { listSubscriptions, subscribedChannelIds, subscriptionStatus } from './list.js';
export { updateSubscriptionProperties } from './properties.js';
export { channelStateProviders } from './state.js';
export {
  addSubscriptions,
  canAddSubscribers,
  changeOwnSubscriptions,
  subscribe,
  unsubscribe,
} from './subscriptions.js';
