/** Emoji by name and code: lookup and validation for reactions and user statuses (Unicode data from markdown/). */
export { checkEmoji, type Emoji, emojiByName, ReactionType } from './emoji.js';
