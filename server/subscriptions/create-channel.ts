import {
  type ChannelCreationOptions,
  checkNewChannelName,
  insertChannel,
  normalizeDescription,
  prepareChannelCreation,
} from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest, insufficientPermission, targetUserDeactivated } from '../core/errors.js';
import { streamById } from '../db/queries/streams.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { addSubscriptions, canAddSubscribers } from './subscriptions.js';

export interface CreateChannelInput {
  name: string;
  description: string;
  subscribers: number[];
  creation: ChannelCreationOptions;
}

/** POST /channels/create */
export function createChannel(ctx: AppContext, actor: UserRow, input: CreateChannelInput) {
  const name = checkNewChannelName(ctx, input.name);
  const blueprint = prepareChannelCreation(ctx, actor, input.creation);
  const subscribers = [...new Set(input.subscribers)].map((id) => {
    const user = userById(ctx.db, id);
    if (!user) throw badRequest(`Invalid user ID: ${id}`);
    if (!user.is_active) throw targetUserDeactivated();
    return user;
  });
  return ctx.transaction((tx) => {
    const id = insertChannel(
      ctx,
      tx,
      actor,
      name,
      normalizeDescription(input.description),
      blueprint,
    );
    const stream = streamById(ctx.db, id)!;
    const others = subscribers.some((u) => u.id !== actor.id);
    if (others && !canAddSubscribers(ctx, actor, stream)) {
      throw insufficientPermission();
    }
    addSubscriptions(ctx, tx, [stream], subscribers);
    return { id };
  });
}
