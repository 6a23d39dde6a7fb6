import { accessChannelById } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import type { DraftFields } from '../db/queries/drafts.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { normalizeContent } from '../messages/index.js';
import { MAX_DRAFT_TIMESTAMP } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { truncateTopic } from '../shared/topics.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import { apiEmail } from '../users/index.js';

/** A draft as a client sends it (already checked for shape by the door). */
export interface DraftInput {
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  /** Stripped of surrounding whitespace, and not blank. */
  content: string;
  /** UNIX seconds, fractions allowed; absent or null: now. */
  timestamp?: number | null;
}

export const draftNotFound = () => new ApiError('Draft does not exist', { status: 404 });

/** Every drafts endpoint refuses while the user keeps drafts on their devices only. */
export function checkDraftsSynchronized(user: UserRow): void {
  if (!mergeUserSettings(user.settings).enable_drafts_synchronization) {
    throw badRequest('User has disabled synchronizing drafts.');
  }
}

/** Python's round(x, 6) closely enough for edit times (Zulip stores microseconds). */
const toMicroseconds = (seconds: number) => Math.round(seconds * 1e6) / 1e6;

/**
 * A direct draft's `to` as Zulip shows it: the other person of a one-to-one
 * conversation, the user alone for a note to self, the others (ascending)
 * in a group conversation.
 */
function displayRecipients(userIds: readonly number[], ownerId: number): number[] {
  const others = [...new Set(userIds)].filter((id) => id !== ownerId).sort((a, b) => a - b);
  return others.length === 0 ? [ownerId] : others;
}

/**
 * Zulip's further_validated_draft_dict: the content as a message would be
 * stored, an edit time, and the addressee checked the way Zulip checks it.
 * A channel draft needs a channel the user may read; a direct draft needs
 * existing, active users (whether the user may message them is left to
 * sending). Anything else, and a direct draft to nobody, is unaddressed.
 */
export function validatedDraft(ctx: AppContext, user: UserRow, input: DraftInput): DraftFields {
  const content = normalizeContent(input.content);
  const lastEditTime = toMicroseconds(input.timestamp ?? ctx.now() / 1000);
  if (lastEditTime < 0) throw badRequest('Timestamp must not be negative.');
  if (lastEditTime > MAX_DRAFT_TIMESTAMP) throw badRequest('Timestamp is too large.');

  if (input.type === 'stream') {
    const topic = truncateTopic(input.topic);
    if (topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
    if (input.to.length !== 1) {
      throw badRequest('Must specify exactly 1 channel ID for channel messages');
    }
    const stream = accessChannelById(ctx, user, input.to[0]!);
    return { type: 'stream', to: [stream.id], topic, content, lastEditTime };
  }
  if (input.type === 'private' && input.to.length > 0) {
    const ids = [...new Set(input.to)].sort((a, b) => a - b);
    const users = ids.map((id) => {
      const found = userById(ctx.db, id);
      if (!found) throw badRequest(`Invalid user ID ${id}`);
      return found;
    });
    const inactive = users.find((u) => !u.is_active);
    if (inactive) {
      const domain = loadRealm(ctx).row.email_domain;
      throw badRequest(`'${apiEmail(inactive, domain)}' is no longer using Zulip.`);
    }
    return {
      type: 'private',
      to: displayRecipients(ids, user.id),
      topic: '',
      content,
      lastEditTime,
    };
  }
  return { type: '', to: [], topic: '', content, lastEditTime };
}
