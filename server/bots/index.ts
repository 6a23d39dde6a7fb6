/** Administering bots: POST /bots (the account itself is made by users/, which keeps bot records), GET /bots, PATCH /bots/{id}, their API keys, deactivation. */
export {
  addBot,
  type BotChanges,
  deactivateBot,
  listOwnBots,
  regenerateBotApiKey,
  updateBot,
} from './bots.js';
