/** Administering existing bots: GET /bots, PATCH /bots/{id}, their API keys, deactivation (creating them and their records is users/). */
export {
  type BotChanges,
  deactivateBot,
  listOwnBots,
  regenerateBotApiKey,
  updateBot,
} from './bots.js';
