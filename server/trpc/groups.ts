import { z } from 'zod';
import {
  createUserGroup,
  deactivateUserGroup,
  listUserGroups,
  updateUserGroup,
  updateUserGroupMembers,
} from '../groups/index.js';
import { blame, procedure, router } from './init.js';
import { userId } from './schemas.js';

const groupId = z.number().int().positive();

/** The fields of Zulip's UserGroup object the admin UI relies on; the rest passes through. */
const groupRecord = z.looseObject({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  members: z.array(z.number()),
  is_system_group: z.boolean(),
  deactivated: z.boolean(),
});

const groupFields = { description: /description/i, name: /name|group/i };

export const groupRouter = router({
  /** GET /user_groups?include_deactivated_groups=true */
  list: procedure.query(({ ctx }) =>
    z.array(groupRecord).parse(listUserGroups(ctx.app, ctx.actor, true).user_groups),
  ),
  /** POST /user_groups/create */
  create: blame(groupFields)
    .input(
      z.object({
        name: z.string(),
        description: z.string().default(''),
        members: z.array(userId).default([]),
      }),
    )
    .mutation(({ ctx, input }) =>
      createUserGroup(ctx.app, ctx.actor, { ...input, subgroups: undefined, settings: {} }),
    ),
  /** PATCH /user_groups/{id}: name and description */
  update: blame(groupFields)
    .input(z.object({ groupId, name: z.string().optional(), description: z.string().optional() }))
    .mutation(({ ctx, input }) =>
      updateUserGroup(ctx.app, ctx.actor, input.groupId, {
        name: input.name,
        description: input.description,
        settings: {},
      }),
    ),
  /** POST /user_groups/{id}/members */
  updateMembers: procedure
    .input(
      z.object({
        groupId,
        add: z.array(userId).default([]),
        delete: z.array(userId).default([]),
      }),
    )
    .mutation(({ ctx, input }) =>
      updateUserGroupMembers(ctx.app, ctx.actor, input.groupId, {
        add: input.add,
        delete: input.delete,
      }),
    ),
  /** POST /user_groups/{id}/deactivate */
  deactivate: procedure
    .input(z.object({ groupId }))
    .mutation(({ ctx, input }) => deactivateUserGroup(ctx.app, ctx.actor, input.groupId)),
  /** PATCH /user_groups/{id} with deactivated=false */
  reactivate: procedure
    .input(z.object({ groupId }))
    .mutation(({ ctx, input }) =>
      updateUserGroup(ctx.app, ctx.actor, input.groupId, { deactivated: false, settings: {} }),
    ),
});
