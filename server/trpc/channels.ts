import { z } from 'zod';
import type { ChannelCreationOptions } from '../channels/index.js';
import {
  archiveChannel,
  getChannel,
  getChannelMembers,
  listChannels,
  plainChannelOptions,
  updateChannel,
} from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { addDefaultChannel, removeDefaultChannel } from '../default-channels/index.js';
import { createChannel, subscribe, unsubscribe } from '../subscriptions/index.js';
import { blame, procedure, router } from './init.js';
import { userId } from './schemas.js';

const channelId = z.number().int().positive();

/** POST /channels/create's defaults for everything the admin UI does not ask. */
const creation = (inviteOnly: boolean): ChannelCreationOptions => ({
  ...plainChannelOptions,
  inviteOnly,
});

/** Subscriptions are addressed by channel name; the UI knows channels by id. */
const nameOf = (app: AppContext, actor: UserRow, id: number) =>
  getChannel(app, actor, id).stream.name;

export const channelRouter = router({
  /** GET /streams?include_all=true: every active channel, private ones included. */
  list: procedure.query(({ ctx }) =>
    listChannels(ctx.app, ctx.actor, {
      includePublic: true,
      includeWebPublic: true,
      includeSubscribed: true,
      excludeArchived: true,
      includeAll: true,
      includeDefault: true,
      includeOwnerSubscribed: false,
      includeCanAccessContent: false,
    }),
  ),
  /** POST /channels/create */
  create: blame({ description: /description/i, name: /name|channel/i })
    .input(
      z.object({
        name: z.string(),
        description: z.string().default(''),
        isPrivate: z.boolean().default(false),
        subscribers: z.array(userId).default([]),
      }),
    )
    .mutation(({ ctx, input }) =>
      createChannel(ctx.app, ctx.actor, {
        name: input.name,
        description: input.description,
        subscribers: input.subscribers,
        creation: creation(input.isPrivate),
      }),
    ),
  /** PATCH /streams/{stream_id}: name, description and privacy. */
  update: blame({ description: /description/i, newName: /name|channel/i })
    .input(
      z.object({
        channelId,
        newName: z.string().optional(),
        description: z.string().optional(),
        isPrivate: z.boolean().optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      updateChannel(ctx.app, ctx.actor, input.channelId, {
        newName: input.newName,
        description: input.description,
        isPrivate: input.isPrivate,
        groupSettings: {},
      }),
    ),
  /** POST and DELETE /default_streams: new people are subscribed to default channels. */
  setDefault: procedure
    .input(z.object({ channelId, isDefault: z.boolean() }))
    .mutation(({ ctx, input }) =>
      input.isDefault
        ? addDefaultChannel(ctx.app, ctx.actor, input.channelId)
        : removeDefaultChannel(ctx.app, ctx.actor, input.channelId),
    ),
  /** DELETE /streams/{stream_id} */
  archive: procedure
    .input(z.object({ channelId }))
    .mutation(({ ctx, input }) => archiveChannel(ctx.app, ctx.actor, input.channelId)),
  /** GET /streams/{stream_id}/members */
  members: procedure
    .input(z.object({ channelId }))
    .query(({ ctx, input }) => getChannelMembers(ctx.app, ctx.actor, input.channelId)),
  /** POST /users/me/subscriptions with principals */
  addMembers: procedure
    .input(z.object({ channelId, userIds: z.array(userId).min(1) }))
    .mutation(({ ctx, input }) =>
      subscribe(ctx.app, ctx.actor, {
        subscriptions: [{ name: nameOf(ctx.app, ctx.actor, input.channelId) }],
        principals: input.userIds,
        authorizationErrorsFatal: true,
        creation: creation(false),
        sendNewSubscriptionMessages: true,
      }),
    ),
  /** DELETE /users/me/subscriptions with principals */
  removeMembers: procedure
    .input(z.object({ channelId, userIds: z.array(userId).min(1) }))
    .mutation(({ ctx, input }) =>
      unsubscribe(ctx.app, ctx.actor, [nameOf(ctx.app, ctx.actor, input.channelId)], input.userIds),
    ),
});
