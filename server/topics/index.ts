/** Topic visibility policies (mute, unmute, follow) and the user_topic event. */
export { topicStateProviders } from './state.js';
export { updateMutedTopic, updateUserTopic } from './user-topics.js';
export { setVisibilityPolicy } from './visibility-policy.js';
