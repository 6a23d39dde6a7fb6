export { addReaction, removeReaction } from './reactions.js';
