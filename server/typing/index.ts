/** Typing notifications. */
export { sendTyping } from './typing.js';
