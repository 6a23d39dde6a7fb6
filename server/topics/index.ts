/**
 * Topic visibility policies (mute, unmute, follow), the user_topic event, and
 * following or unmuting topics automatically when one takes part in them.
 */
export {
  AutomaticPolicy,
  applyInitiationPolicy,
  applyParticipationPolicy,
  followWhereMentioned,
  policyForSentMessage,
} from './automatic-policy.js';
export { topicStateProviders } from './state.js';
export { updateMutedTopic, updateUserTopic } from './user-topics.js';
export { setVisibilityPolicy } from './visibility-policy.js';
