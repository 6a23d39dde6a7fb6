import { randomBytes } from 'node:crypto';
import { accessChannelById } from '../channels/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest, insufficientPermission, ownerRequired } from '../core/errors.js';
import { defaultStreamIds } from '../db/queries/default-streams.js';
import {
  type InvitationRow,
  insertInvitation,
  invitationById,
  openInvitations,
  setInvitationRevoked,
} from '../db/queries/invitations.js';
import type { StreamRow } from '../db/queries/streams.js';
import { allUsers, type UserRow, userByEmailKey } from '../db/queries/users.js';
import { checkEmailAllowedInRealm } from '../realm-domains/index.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { loadRealm } from '../shared/realm.js';
import { isAdmin, isOwner, Role, requireRole } from '../shared/roles.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { canAddSubscribers } from '../subscriptions/index.js';
import { checkEmail, isSystemBot } from '../users/index.js';

/** Zulip's INVITATION_LINK_VALIDITY_DAYS, the default lifetime of an invitation. */
export const DEFAULT_INVITE_EXPIRES_IN_MINUTES = 10 * 24 * 60;

/** The roles an invitation may grant (Zulip's PreregistrationUser.INVITE_AS). */
export const INVITE_AS: readonly number[] = [
  Role.owner,
  Role.administrator,
  Role.moderator,
  Role.member,
  Role.guest,
];

export interface InvitationOptions {
  inviteAs: number;
  /** null: never expires. */
  expiresInMinutes: number | null;
  streamIds: readonly number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | null;
}

/** Zulip's InvitationError: `errors` lists [address, reason, deactivated] triples. */
const invitationFailed = (
  msg: string,
  errors: Array<[string, string, boolean]>,
  sentInvitations: boolean,
) =>
  new ApiError(msg, {
    code: 'INVITATION_FAILED',
    extra: {
      errors,
      sent_invitations: sentInvitations,
      license_limit_reached: false,
      daily_limit_reached: false,
    },
  });

/** 24 characters of base 32 (120 bits), as Zulip's confirmation keys. */
function newConfirmationKey(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(15);
  let bits = 0;
  let value = 0;
  let key = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      key += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return key;
}

/** Where an invitation's link leads: the sign-up page (server/http/signup-page.ts). */
export function invitationUrl(ctx: AppContext, invitation: InvitationRow): string {
  return invitation.email === null
    ? `${ctx.config.externalUrl}/join/${invitation.confirmation_key}/`
    : `${ctx.config.externalUrl}/accounts/do_confirm/${invitation.confirmation_key}`;
}

/** Administrators (bots too) and the invitation's creator hear `invites_changed`. */
export function emitInvitesChanged(ctx: AppContext, tx: Tx, referrerId: number | null): void {
  const users = allUsers(ctx.db)
    .filter((u) => u.is_active && isAdmin(u))
    .map((u) => u.id);
  if (referrerId !== null && !users.includes(referrerId)) users.push(referrerId);
  tx.emit({
    type: 'invites_changed',
    users,
    payload: { type: 'invites_changed' } satisfies EventBody<'invites_changed'>,
  });
}

/** Zulip's require_member_or_admin. */
function requireMemberOrAdmin(actor: UserRow): void {
  requireRole(actor, 'member');
  requireRole(actor, 'human');
}

/** The caller may invite at all, and `invite_as` is a role (checked as Zulip reads its parameters). */
function checkInviter(actor: UserRow, inviteAs: number): void {
  requireMemberOrAdmin(actor);
  if (!INVITE_AS.includes(inviteAs)) throw badRequest('Invalid invite_as');
}

/** Zulip's check_role_based_permissions: owners invite owners; staff roles need an administrator. */
function checkRoleBasedPermissions(actor: UserRow, invitedAs: number, requireAdmin: boolean) {
  if (invitedAs === Role.owner && !isOwner(actor)) throw ownerRequired();
  if (requireAdmin && !isAdmin(actor)) throw badRequest('Must be an organization administrator');
}

/** Zulip's access_streams_for_invite: channels the inviter can read and add people to. */
function accessChannelsForInvite(
  ctx: AppContext,
  actor: UserRow,
  streamIds: readonly number[],
): StreamRow[] {
  const streams = streamIds.map((id) => {
    try {
      return accessChannelById(ctx, actor, id);
    } catch {
      throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    }
  });
  // Default channels are everyone's to give (Zulip's allow_default_streams).
  const defaults = new Set(defaultStreamIds(ctx.db));
  const refused = streams.filter((s) => !defaults.has(s.id) && !canAddSubscribers(ctx, actor, s));
  if (refused.length > 0) {
    throw badRequest('You do not have permission to subscribe other users to channels.');
  }
  return streams;
}

/** Staff roles are given by administrators only (owners by owners). */
function checkInvitedRole(actor: UserRow, invitedAs: number): void {
  const requireAdmin = ([Role.owner, Role.administrator, Role.moderator] as number[]).includes(
    invitedAs,
  );
  checkRoleBasedPermissions(actor, invitedAs, requireAdmin);
}

/** A welcome text of the invitation's own is for administrators to write. */
function checkWelcomeText(actor: UserRow, text: string | null): void {
  if (text !== null && !isAdmin(actor)) throw badRequest('Must be an organization administrator');
}

function expiresAt(ctx: AppContext, minutes: number | null): number | null {
  return minutes === null ? null : Math.floor(ctx.now() / 1000) + minutes * 60;
}

/** Zulip's get_invitee_emails_set: separated by commas or newlines, "Name <address>" allowed. */
function inviteeEmails(raw: string): string[] {
  const emails = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    emails.add((named ? named[1]! : part).trim());
  }
  return [...emails];
}

/** Zulip's validate_email_is_valid: why an address cannot be invited, or null. */
function addressProblem(ctx: AppContext, email: string): string | null {
  try {
    checkEmail(email);
  } catch {
    return 'Invalid address.';
  }
  try {
    checkEmailAllowedInRealm(ctx, email);
  } catch (err) {
    const message = err instanceof Error ? err.message : '';
    return message.includes('+') ? message : 'Outside your domain.';
  }
  return null;
}

/**
 * POST /invites (Zulip's invite_users_backend): one invitation per new
 * address, with the channels and role given. Hearth sends no e-mail; the
 * invitations' links are in GET /invites for the inviter to pass on.
 */
export function inviteUsers(
  ctx: AppContext,
  actor: UserRow,
  rawEmails: string,
  options: InvitationOptions & { notifyReferrerOnJoin: boolean },
): Record<string, never> {
  checkInviter(actor, options.inviteAs);
  const setting = loadRealm(ctx).settings.can_invite_users_group as StoredGroupSetting;
  if (!userHasGroupSetting(ctx, actor, setting)) throw insufficientPermission();
  checkInvitedRole(actor, options.inviteAs);
  if (rawEmails === '') throw badRequest('You must specify at least one email address.');
  const emails = inviteeEmails(rawEmails);
  const streams = accessChannelsForInvite(ctx, actor, options.streamIds);
  checkWelcomeText(actor, options.welcomeMessageCustomText);

  const invalid: Array<[string, string, boolean]> = [];
  const skipped: Array<[string, string, boolean]> = [];
  const good: string[] = [];
  for (const email of emails) {
    if (email === '') continue;
    const problem = addressProblem(ctx, email);
    if (problem !== null) {
      invalid.push([email, problem, false]);
      continue;
    }
    const existing = userByEmailKey(ctx.db, email.toLowerCase());
    if (existing && isSystemBot(ctx, existing))
      skipped.push([email, 'Reserved for system bots.', false]);
    else if (existing?.is_active) skipped.push([email, 'Already has an account.', false]);
    else if (existing) skipped.push([email, 'Account has been deactivated.', true]);
    else good.push(email);
  }
  if (invalid.length > 0) {
    throw invitationFailed(
      "Some emails did not validate, so we didn't send any invitations.",
      [...invalid, ...skipped],
      false,
    );
  }
  if (skipped.length > 0 && skipped.length === emails.length) {
    throw invitationFailed("We weren't able to invite anyone.", skipped, false);
  }
  ctx.transaction((tx) => {
    for (const email of good) {
      insertInvitation(
        ctx.db,
        {
          email,
          confirmation_key: newConfirmationKey(),
          referred_by: actor.id,
          invited_as: options.inviteAs,
          invited_at: Math.floor(ctx.now() / 1000),
          expires_at: expiresAt(ctx, options.expiresInMinutes),
          include_default_channels: options.includeRealmDefaultSubscriptions ? 1 : 0,
          notify_referrer_on_join: options.notifyReferrerOnJoin ? 1 : 0,
          welcome_message_custom_text: options.welcomeMessageCustomText,
        },
        streams.map((s) => s.id),
      );
    }
    emitInvitesChanged(ctx, tx, actor.id);
  });
  if (skipped.length > 0) {
    throw invitationFailed(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      true,
    );
  }
  return {};
}

/** POST /invites/multiuse (Zulip's generate_multiuse_invite_backend): a reusable invitation link. */
export function createInvitationLink(
  ctx: AppContext,
  actor: UserRow,
  options: InvitationOptions,
): { invite_link: string } {
  checkInviter(actor, options.inviteAs);
  const setting = loadRealm(ctx).settings.create_multiuse_invite_group as StoredGroupSetting;
  if (!userHasGroupSetting(ctx, actor, setting)) throw insufficientPermission();
  checkInvitedRole(actor, options.inviteAs);
  const streams = accessChannelsForInvite(ctx, actor, options.streamIds);
  checkWelcomeText(actor, options.welcomeMessageCustomText);
  return ctx.transaction((tx) => {
    const id = insertInvitation(
      ctx.db,
      {
        email: null,
        confirmation_key: newConfirmationKey(),
        referred_by: actor.id,
        invited_as: options.inviteAs,
        invited_at: Math.floor(ctx.now() / 1000),
        expires_at: expiresAt(ctx, options.expiresInMinutes),
        include_default_channels: options.includeRealmDefaultSubscriptions ? 1 : 0,
        notify_referrer_on_join: 0,
        welcome_message_custom_text: options.welcomeMessageCustomText,
      },
      streams.map((s) => s.id),
    );
    emitInvitesChanged(ctx, tx, actor.id);
    return { invite_link: invitationUrl(ctx, invitationById(ctx.db, id)!) };
  });
}

/**
 * GET /invites (Zulip's do_get_invites_controlled_by_user): the open
 * invitations the caller controls, e-mail invitations first. Administrators
 * control all; others their own. Each carries its `link_url` (Zulip gives
 * e-mail invitations none: it mails them).
 */
export function listInvitations(ctx: AppContext, actor: UserRow) {
  requireMemberOrAdmin(actor);
  const mine = openInvitations(ctx.db, Math.floor(ctx.now() / 1000)).filter(
    (i) => isAdmin(actor) || i.referred_by === actor.id,
  );
  const byEmail = mine
    .filter((i) => i.email !== null)
    .map((i) => ({
      email: i.email,
      invited_by_user_id: i.referred_by,
      invited: i.invited_at,
      expiry_date: i.expires_at,
      id: i.id,
      invited_as: i.invited_as,
      is_multiuse: false,
      notify_referrer_on_join: i.notify_referrer_on_join === 1,
      link_url: invitationUrl(ctx, i),
    }));
  const links = mine
    .filter((i) => i.email === null)
    .map((i) => ({
      invited_by_user_id: i.referred_by,
      invited: i.invited_at,
      expiry_date: i.expires_at,
      id: i.id,
      link_url: invitationUrl(ctx, i),
      invited_as: i.invited_as,
      is_multiuse: true,
    }));
  return { invites: [...byEmail, ...links] };
}

/** Zulip's access_invite_by_id and access_multiuse_invite_by_id. */
function accessInvitation(
  ctx: AppContext,
  actor: UserRow,
  id: number,
  multiuse: boolean,
): InvitationRow {
  const invitation = invitationById(ctx.db, id);
  if (!invitation || (invitation.email === null) !== multiuse) {
    throw badRequest('No such invitation');
  }
  if (!multiuse && invitation.revoked) throw badRequest('No such invitation');
  if (invitation.referred_by !== actor.id) {
    checkRoleBasedPermissions(actor, invitation.invited_as, true);
  }
  if (multiuse && invitation.revoked) throw badRequest('Invitation has already been revoked');
  return invitation;
}

/** DELETE /invites/{invite_id} and DELETE /invites/multiuse/{invite_id}. */
export function revokeInvitation(
  ctx: AppContext,
  actor: UserRow,
  id: number,
  multiuse: boolean,
): Record<string, never> {
  requireMemberOrAdmin(actor);
  const invitation = accessInvitation(ctx, actor, id, multiuse);
  ctx.transaction((tx) => {
    setInvitationRevoked(ctx.db, invitation.id);
    emitInvitesChanged(ctx, tx, invitation.referred_by);
  });
  return {};
}

/**
 * POST /invites/{invite_id}/resend: Zulip mails the invitation again;
 * Hearth sends no e-mail, so this only checks that the caller may, and the
 * link stays what GET /invites shows.
 */
export function resendInvitation(
  ctx: AppContext,
  actor: UserRow,
  id: number,
): Record<string, never> {
  requireMemberOrAdmin(actor);
  accessInvitation(ctx, actor, id, false);
  return {};
}
