import type { StateProvider } from '../events/state-provider.js';
import { realmEmojiDict } from './custom.js';

/** `realm_emoji`: every custom emoji by id, deactivated ones included (Zulip's get_all_custom_emoji_for_realm). */
export const realmEmojiState: StateProvider = {
  fetchTypes: ['realm_emoji'],
  fetch: (ctx) => ({ realm_emoji: realmEmojiDict(ctx) }),
};
