import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import type { StreamRow } from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import { welcomeNoteSyntax } from '../markdown/index.js';
import { sendInternalDirectMessage } from '../messages/index.js';
import { loadRealm } from '../shared/realm.js';
import { isAdmin, requireRole } from '../shared/roles.js';
import { ensureSystemBot, findSystemBot } from '../users/index.js';

/**
 * The Welcome Bot's first direct message to a new account (Zulip's
 * send_initial_direct_messages_to_user, in Hearth's words): how channels,
 * topics and direct messages fit together, where they were subscribed, and
 * for administrators how to bring people in. Sent only where the
 * organization has a Welcome Bot (see onboarding/first-run.ts). The
 * organization's custom welcome text (or the invitation's) follows as a
 * second message.
 */
export function sendWelcome(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  channels: readonly StreamRow[],
  customText?: string | null,
): number[] {
  const bot = findSystemBot(ctx, 'welcome');
  if (!bot || user.is_bot) return [];
  const realm = loadRealm(ctx);
  const lines = [
    `Hello, and welcome to **${realm.row.name}**! :wave:`,
    '',
    'A few things that help from the start:',
    '* Conversations happen in **channels**, and every channel message has a **topic**. ' +
      'Start a new topic for each new subject, and the replies stay together.',
    '* A **direct message**, like this one, goes to one person or a small group.',
  ];
  if (channels.length > 0) {
    const links = channels.map((c) => `#**${c.name}**`).join(', ');
    lines.push(`* You are subscribed to ${links}: a good place to say hello.`);
  }
  lines.push(
    '* Any Zulip client works with this server: the browser, the Zulip mobile and terminal apps, ' +
      'and the `zulip` Python package for scripts and bots.',
  );
  if (isAdmin(user)) {
    lines.push(
      '',
      'As an administrator you can bring your team in with an invitation link ' +
        '(`POST /api/v1/invites/multiuse`, or the Invitations page of the admin app): ' +
        'whoever opens it picks a name and a password.',
    );
  }
  const ids = [sendInternalDirectMessage(ctx, tx, bot, user, lines.join('\n'))];
  const custom = customText ?? realm.settings.welcome_message_custom_text;
  if (custom.trim() !== '') {
    ids.push(sendInternalDirectMessage(ctx, tx, bot, user, welcomeNoteSyntax(custom)));
  }
  return ids;
}

/**
 * POST /realm/test_welcome_bot_custom_message (administrators): the
 * Welcome Bot sends the caller a welcome text as newcomers would get it.
 * An organization without a Welcome Bot gets one (and from then on greets
 * newcomers).
 */
export function sendTestWelcomeMessage(
  ctx: AppContext,
  actor: UserRow,
  text: string,
): { message_id: number } {
  requireRole(actor, 'admin');
  if (text.length === 0) throw badRequest('Message must not be empty');
  return ctx.transaction((tx) => {
    const bot = ensureSystemBot(ctx, tx, 'welcome');
    return { message_id: sendInternalDirectMessage(ctx, tx, bot, actor, welcomeNoteSyntax(text)) };
  });
}
