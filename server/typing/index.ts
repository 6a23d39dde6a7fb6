export { sendTyping } from './typing.js';
