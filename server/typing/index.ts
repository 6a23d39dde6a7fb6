/** Typing notifications. */
export { sendEditTyping, sendTyping } from './typing.js';
