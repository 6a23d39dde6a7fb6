export { createChannel } from './create-channel.js';
export { updateSubscriptionProperties } from './properties.js';
export { channelStateProviders } from './state.js';
export {
  addSubscriptions,
  listSubscriptions,
  subscribe,
  subscriptionStatus,
  unsubscribe,
} from './subscriptions.js';
