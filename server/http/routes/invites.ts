import { z } from 'zod';
import {
  createInvitationLink,
  DEFAULT_INVITE_EXPIRES_IN_MINUTES,
  inviteUsers,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from '../../invites/index.js';
import { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../../shared/limits.js';
import { WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** What both kinds of invitation take (Zulip's invite_users_backend and generate_multiuse_invite_backend). */
const invitationParams = {
  invite_as: p.int().default(400),
  invite_expires_in_minutes: p.json(z.int().nullable()).default(DEFAULT_INVITE_EXPIRES_IN_MINUTES),
  include_realm_default_subscriptions: p.bool().default(false),
  welcome_message_custom_text: p
    .str({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH })
    .optional(),
};

const options = (
  params: {
    invite_as: number;
    invite_expires_in_minutes: number | null;
    include_realm_default_subscriptions: boolean;
    welcome_message_custom_text: string | undefined;
  },
  streamIds: number[],
) => ({
  inviteAs: params.invite_as,
  expiresInMinutes: params.invite_expires_in_minutes,
  streamIds,
  includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
  welcomeMessageCustomText: params.welcome_message_custom_text ?? null,
});

/** /invites */
export const inviteRoutes = [
  route({
    method: 'GET',
    path: '/invites',
    api: '/invites',
    params: {},
    handler: (ctx, user) => listInvitations(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/invites',
    api: '/invites',
    differences: {
      'invite_expires_in_minutes is json': WHY.nullClears,
      'group_ids is not declared': WHY.notYet,
    },
    params: {
      invitee_emails: p.str(),
      stream_ids: p.json(z.array(z.int())),
      notify_referrer_on_join: p.bool().default(true),
      ...invitationParams,
    },
    handler: (ctx, user, params) =>
      inviteUsers(ctx, user, params.invitee_emails, {
        ...options(params, params.stream_ids),
        notifyReferrerOnJoin: params.notify_referrer_on_join,
      }),
  }),
  route({
    method: 'POST',
    path: '/invites/multiuse',
    api: '/invites/multiuse',
    differences: {
      'invite_expires_in_minutes is json': WHY.nullClears,
      'group_ids is not declared': WHY.notYet,
    },
    params: { stream_ids: p.json(z.array(z.int())).default([]), ...invitationParams },
    handler: (ctx, user, params) =>
      createInvitationLink(ctx, user, options(params, params.stream_ids)),
  }),
  route({
    method: 'DELETE',
    path: '/invites/:invite_id(^\\d+)',
    api: '/invites/{invite_id}',
    params: { invite_id: p.int() },
    handler: (ctx, user, params) => revokeInvitation(ctx, user, params.invite_id, false),
  }),
  route({
    method: 'DELETE',
    path: '/invites/multiuse/:invite_id(^\\d+)',
    api: '/invites/multiuse/{invite_id}',
    params: { invite_id: p.int() },
    handler: (ctx, user, params) => revokeInvitation(ctx, user, params.invite_id, true),
  }),
  route({
    method: 'POST',
    path: '/invites/:invite_id(^\\d+)/resend',
    api: '/invites/{invite_id}/resend',
    params: { invite_id: p.int() },
    handler: (ctx, user, params) => resendInvitation(ctx, user, params.invite_id),
  }),
];
