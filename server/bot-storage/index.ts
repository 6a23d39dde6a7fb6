/** Bot storage: the key-value store a bot keeps on the server (zulip_bots' StateHandler). */
export { getBotStorage, removeBotStorage, updateBotStorage } from './storage.js';
