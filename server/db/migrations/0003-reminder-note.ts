import type { Migration } from './index.js';

/**
 * Reminders (POST /reminders) keep the note their owner wrote: the reminder's
 * text is written again from the message when it is delivered, note included.
 * Scheduled messages leave it NULL.
 */
export const reminderNote: Migration = {
  version: 3,
  name: 'reminder notes',
  up(db) {
    db.exec('ALTER TABLE scheduled_messages ADD COLUMN reminder_note TEXT;');
  },
};
