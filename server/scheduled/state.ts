import {
  pendingRemindersOf,
  pendingScheduledMessagesOf,
} from '../db/queries/scheduled-messages.js';
import type { StateProvider } from '../events/state-provider.js';
import { emptyTopicReplacement } from '../shared/topics.js';
import { formatReminder, formatScheduledMessage } from './format.js';

/** POST /register's `scheduled_messages`: the user's undelivered ones, soonest first. */
export const scheduledMessagesState: StateProvider = {
  fetchTypes: ['scheduled_messages'],
  fetch: (ctx, user, options) => {
    const emptyName = emptyTopicReplacement(ctx, options.capabilities.empty_topic_name);
    return {
      scheduled_messages: pendingScheduledMessagesOf(ctx.db, user.id).map((row) =>
        formatScheduledMessage(row, emptyName),
      ),
    };
  },
};

/** POST /register's `reminders`: the user's undelivered ones, soonest first. */
export const remindersState: StateProvider = {
  fetchTypes: ['reminders'],
  fetch: (ctx, user) => ({ reminders: pendingRemindersOf(ctx.db, user.id).map(formatReminder) }),
};
