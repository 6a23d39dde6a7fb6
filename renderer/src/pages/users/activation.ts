import type { Api } from '../../api/client.js';

type Confirm = (options: {
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
}) => Promise<boolean>;

/**
 * Deactivates (after confirmation: the account's sessions end at once) or
 * reactivates an account. Returns the message to show, or null when the
 * person cancelled.
 */
export async function toggleActivation(
  api: Api,
  confirm: Confirm,
  account: { user_id: number; full_name: string; is_active: boolean; is_bot: boolean },
): Promise<string | null> {
  if (account.is_active) {
    const ok = await confirm({
      title: `Deactivate ${account.full_name}?`,
      body: account.is_bot
        ? 'The bot stops working at once: its API key is refused until it is reactivated.'
        : 'They are logged out everywhere at once and cannot log in again until reactivated. Their bots are deactivated too.',
      confirmLabel: 'Deactivate',
      danger: true,
    });
    if (!ok) return null;
    // A bot's own deactivation (DELETE /bots/{id}): the user one refuses bots, as Zulip's does.
    if (account.is_bot) await api.bots.deactivate.mutate({ botId: account.user_id });
    else await api.users.deactivate.mutate({ userId: account.user_id });
    return `${account.full_name} is deactivated.`;
  }
  await api.users.reactivate.mutate({ userId: account.user_id });
  return `${account.full_name} is active again.`;
}
