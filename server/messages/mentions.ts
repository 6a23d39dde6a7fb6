import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import type { StreamRow } from '../db/queries/streams.js';
import { groupById, recursiveMembers } from '../db/queries/user-groups.js';
import { topicParticipants } from '../db/queries/user-topics.js';
import type { UserRow } from '../db/queries/users.js';
import type { RenderResult } from '../markdown/index.js';
import { Flag } from '../shared/flags.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { WILDCARD_MENTION_THRESHOLD } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';

/** Clients that render their own sent messages, so the sender has read them (Zulip's list). */

/**
 * Wildcard and group mention permissions (Zulip checks them on send and on
 * content edits). Returns the topic wildcard's audience: the topic's participants.
 */
export function checkMentionPermissions(
  ctx: AppContext,
  sender: UserRow,
  rendered: RenderResult,
  channel: { stream: StreamRow; topic: string; subscriberCount: number } | undefined,
): number[] {
  const realm = loadRealm(ctx);
  const mayMentionMany = userHasGroupSetting(
    ctx,
    sender,
    realm.settings.can_mention_many_users_group as StoredGroupSetting,
  );
  let participants: number[] = [];
  if (channel) {
    if (
      rendered.streamWildcard &&
      channel.subscriberCount > WILDCARD_MENTION_THRESHOLD &&
      !mayMentionMany
    ) {
      throw new ApiError(
        'You do not have permission to use channel wildcard mentions in this channel.',
        { code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED' },
      );
    }
    if (rendered.topicWildcard) {
      participants = [
        ...new Set([...topicParticipants(ctx.db, channel.stream.id, channel.topic), sender.id]),
      ];
      if (participants.length > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
        throw new ApiError(
          'You do not have permission to use topic wildcard mentions in this topic.',
          { code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED' },
        );
      }
    }
  }
  for (const groupId of rendered.mentionedGroupIds) {
    const group = groupById(ctx.db, groupId);
    if (!group) continue;
    const permissions = JSON.parse(group.permissions) as Record<string, StoredGroupSetting>;
    const allowed = permissions.can_mention_group;
    if (allowed !== undefined && !sender.is_bot && !userHasGroupSetting(ctx, sender, allowed)) {
      throw badRequest(`You are not allowed to mention user group '${group.name}'.`);
    }
  }
  return participants;
}

/** Users a mention reaches: the mentioned users and every member of mentioned groups. */
export function mentionedUsers(ctx: AppContext, rendered: RenderResult): Set<number> {
  const mentioned = new Set(rendered.mentionedUserIds);
  for (const groupId of rendered.mentionedGroupIds) {
    for (const member of recursiveMembers(ctx.db, groupId)) mentioned.add(member);
  }
  return mentioned;
}

/** The mention bits a recipient gets from this rendering. */
export function mentionFlags(
  userId: number,
  rendered: RenderResult,
  mentioned: ReadonlySet<number>,
  topicWildcardUsers: ReadonlySet<number>,
): number {
  let bits = 0;
  if (mentioned.has(userId)) bits |= Flag.mentioned;
  if (rendered.streamWildcard) bits |= Flag.stream_wildcard_mentioned;
  if (rendered.topicWildcard && topicWildcardUsers.has(userId))
    bits |= Flag.topic_wildcard_mentioned;
  return bits;
}
