export { updateMutedTopic, updateUserTopic } from './user-topics.js';
