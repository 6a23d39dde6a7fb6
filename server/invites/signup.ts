import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  type InvitationRow,
  invitationByKey,
  invitationChannelIds,
  setInvitationUsed,
} from '../db/queries/invitations.js';
import { type StreamRow, streamById } from '../db/queries/streams.js';
import { userById } from '../db/queries/users.js';
import { silentMention } from '../markdown/index.js';
import { sendInternalDirectMessage } from '../messages/index.js';
import { createAccount } from '../onboarding/index.js';
import { loadRealm } from '../shared/realm.js';
import { notificationBot } from '../users/index.js';
import { emitInvitesChanged } from './invites.js';

/** What the sign-up page shows for an invitation's key. */
export type InvitationView =
  | { valid: false; realmName: string }
  | {
      valid: true;
      realmName: string;
      inviterName: string;
      /** The address an e-mail invitation is for; null for a reusable link. */
      email: string | null;
    };

const INVALID_LINK = 'This invitation link is not valid: it was revoked, used or has expired.';

/** The invitation a key opens, if it can still be used. */
function usableInvitation(ctx: AppContext, key: string): InvitationRow | null {
  const invitation = invitationByKey(ctx.db, key);
  if (!invitation || invitation.revoked || invitation.used_by !== null) return null;
  if (invitation.expires_at !== null && invitation.expires_at < Math.floor(ctx.now() / 1000)) {
    return null;
  }
  return invitation;
}

export function describeInvitation(ctx: AppContext, key: string): InvitationView {
  const realmName = loadRealm(ctx).row.name;
  const invitation = usableInvitation(ctx, key);
  if (!invitation) return { valid: false, realmName };
  return {
    valid: true,
    realmName,
    inviterName: userById(ctx.db, invitation.referred_by)?.full_name ?? '',
    email: invitation.email,
  };
}

/**
 * Signing up with an invitation (Zulip's registration through a
 * confirmation link): the account is made by the same path as POST /users
 * (onboarding/createAccount, so account creation's rules, the password's
 * included, apply alike), with the invitation's role, channels and welcome
 * text. An e-mail invitation is then used up; the inviter is told, when
 * they asked to be, and the invitations list changes for those who see it.
 */
export async function acceptInvitation(
  ctx: AppContext,
  key: string,
  input: { email: string; fullName: string; password: string },
): Promise<{ user_id: number; email: string }> {
  const invitation = usableInvitation(ctx, key);
  if (!invitation) throw badRequest(INVALID_LINK);
  const email = invitation.email ?? input.email;
  const channels: StreamRow[] = invitationChannelIds(ctx.db, invitation.id)
    .map((id) => streamById(ctx.db, id))
    .filter((s): s is StreamRow => s !== undefined && !s.is_archived);
  const created = await createAccount(
    ctx,
    null,
    {
      email,
      password: input.password,
      fullName: input.fullName,
      role: invitation.invited_as,
      passwordChosenBySelf: true,
    },
    {
      channels,
      includeDefaultChannels: invitation.include_default_channels === 1,
      welcomeMessageCustomText: invitation.welcome_message_custom_text,
      alsoInTransaction: (tx, user) => {
        // Checked again inside the transaction: another sign-up may have used it meanwhile.
        if (!usableInvitation(ctx, key)) throw badRequest(INVALID_LINK);
        if (invitation.email !== null) setInvitationUsed(ctx.db, invitation.id, user.id);
        const referrer = userById(ctx.db, invitation.referred_by);
        if (referrer?.is_active && invitation.notify_referrer_on_join) {
          sendInternalDirectMessage(
            ctx,
            tx,
            notificationBot(ctx, tx),
            referrer,
            `${silentMention(user)} accepted your invitation to join ${loadRealm(ctx).row.name}!`,
          );
        }
        emitInvitesChanged(ctx, tx, invitation.referred_by);
      },
    },
  );
  return { user_id: created.user_id, email };
}
