import type { AppContext } from '../core/context.js';
import { type UserRow, userByEmailKey } from '../db/queries/users.js';
import { loadRealm } from '../shared/realm.js';

/**
 * The bots the server itself speaks through, one of each per organization,
 * ownerless, at addresses under its e-mail domain (Zulip's system bots):
 * the Notification Bot announces moves, resolved topics and reports; the
 * Welcome Bot greets new accounts (the first-run organization has one; the
 * demo and organizations made by other means do not).
 */
export const SYSTEM_BOTS = {
  notification: { local: 'notification-bot', name: 'Notification Bot' },
  welcome: { local: 'welcome-bot', name: 'Welcome Bot' },
} as const;
export type SystemBotKind = keyof typeof SYSTEM_BOTS;

export function systemBotEmail(ctx: AppContext, kind: SystemBotKind): string {
  return `${SYSTEM_BOTS[kind].local}@${loadRealm(ctx).row.email_domain}`;
}

/** The Notification Bot's address in an organization with this e-mail domain (no realm row needed). */
export const notificationBotAddress = (emailDomain: string) =>
  `${SYSTEM_BOTS.notification.local}@${emailDomain}`;

/** The Notification Bot's address. */
export const notificationBotEmail = (ctx: AppContext) => systemBotEmail(ctx, 'notification');

/** The system bot of that kind, if the organization has it. */
export function findSystemBot(ctx: AppContext, kind: SystemBotKind): UserRow | undefined {
  const bot = userByEmailKey(ctx.db, systemBotEmail(ctx, kind).toLowerCase());
  return bot && isSystemBot(ctx, bot) ? bot : undefined;
}

/** Whether `user` is one of the server's own bots: ownerless, at a system address. */
export function isSystemBot(ctx: AppContext, user: UserRow): boolean {
  if (user.is_bot !== 1 || user.bot_owner_id !== null) return false;
  const email = user.delivery_email.toLowerCase();
  return (Object.keys(SYSTEM_BOTS) as SystemBotKind[]).some(
    (kind) => systemBotEmail(ctx, kind).toLowerCase() === email,
  );
}
