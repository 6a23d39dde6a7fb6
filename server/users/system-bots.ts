import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { loadRealm } from '../shared/realm.js';

/** The Notification Bot's address: one per organization, under its e-mail domain. */
export const notificationBotAddress = (emailDomain: string) => `notification-bot@${emailDomain}`;

export function notificationBotEmail(ctx: AppContext): string {
  return notificationBotAddress(loadRealm(ctx).row.email_domain);
}

/**
 * Whether `user` is a bot the server itself speaks through (the Notification
 * Bot): ownerless, and at the system address.
 */
export function isSystemBot(ctx: AppContext, user: UserRow): boolean {
  return (
    user.is_bot === 1 &&
    user.bot_owner_id === null &&
    user.delivery_email.toLowerCase() === notificationBotEmail(ctx).toLowerCase()
  );
}
