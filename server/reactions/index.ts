/** Emoji reactions on messages. */
export { addReaction, removeReaction } from './reactions.js';
