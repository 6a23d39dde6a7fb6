/** Invitations: e-mail invitations and reusable links (shown to copy; Hearth sends no e-mail), `invites_changed`, and signing up with one. */
export {
  createInvitationLink,
  DEFAULT_INVITE_EXPIRES_IN_MINUTES,
  INVITE_AS,
  inviteUsers,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from './invites.js';
export { acceptInvitation, describeInvitation, type InvitationView } from './signup.js';
