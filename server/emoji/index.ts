/** Emoji: lookup and validation for reactions and statuses, custom emoji (upload, deactivate, images, register state), and the emoji files Zulip serves under /static. */
export { type EmojiPreview, emojiPreviews } from './admin.js';
export { addCustomEmoji, deactivateCustomEmoji, listCustomEmoji } from './custom.js';
export { checkEmoji, type Emoji, emojiByName, ReactionType } from './emoji.js';
export { customEmojiImage, customEmojiStill } from './files.js';
export { emojiContentType, emojiFormatFor, resizeEmoji } from './images.js';
export { emojiPickerJson, emojiSpriteCss, emojiSpriteSheet } from './sprites.js';
export { realmEmojiState } from './state.js';
export { emojiApiJson, zulipEmojiPng } from './static-files.js';
