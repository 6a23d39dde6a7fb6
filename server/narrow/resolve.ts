/** A parsed narrow resolved against the database: operands to channels and users, terms to conditions, within what the user may see. */
import { hasContentAccess, hasMetadataAccess } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import {
  dmGroupIdByMembers,
  longerWordsStartingWith,
  type NarrowCondition,
  unreadLowerBound,
  type Visibility,
} from '../db/queries/message-search.js';
import { type MessageRow, topicKey } from '../db/queries/messages.js';
import { catchUpSearchIndex } from '../db/queries/search-index.js';
import { allStreams, type StreamRow, streamById, streamByName } from '../db/queries/streams.js';
import { type UserRow, userByEmailKey, userById } from '../db/queries/users.js';
import { tableMemo } from '../db/table-memo.js';
import type { NarrowTerm } from '../events/queue.js';
import { Flag } from '../shared/flags.js';
import { loadRealm } from '../shared/realm.js';
import { isGuest } from '../shared/roles.js';
import { canonicalTopic } from '../shared/topics.js';
import { accessMessage } from './access.js';
import { ftsWithCompletions, parseSearchOperand, type SearchOperand } from './search-highlight.js';

export type { NarrowTerm };

import {
  badOperator,
  badOperatorCombination,
  canonicalTerm,
  LARGER_THAN_MAX_MESSAGE_ID,
} from './parse.js';

export interface ChannelReach {
  content: readonly StreamRow[];
  /** Zulip's can_access_stream_history. */
  history: ReadonlySet<number>;
}

/**
 * Every narrowed read resolves the reader's channels, which took a query per
 * channel (subscription, group permissions): about a millisecond of each
 * GET /messages with 50 channels. The answer only changes with the tables
 * below, so it is kept per user (and role, which the row passed in carries)
 * until one of them is written.
 */
const reachByUser = tableMemo(
  [
    'streams',
    'subscriptions',
    'users',
    'user_groups',
    'user_group_members',
    'user_group_subgroups',
  ],
  (ctx: AppContext) => ({ streams: allStreams(ctx.db), byUser: new Map<string, ChannelReach>() }),
);

export function channelReach(ctx: AppContext, user: UserRow): ChannelReach {
  const memo = reachByUser(ctx);
  const key = `${user.id}:${user.role}`;
  let reach = memo.byUser.get(key);
  if (!reach) {
    reach = computeChannelReach(ctx, user, memo.streams);
    // Kept like the memo holding it, also inside a transaction (db/table-memo.ts).
    memo.byUser.set(key, reach);
  }
  return reach;
}

function computeChannelReach(
  ctx: AppContext,
  user: UserRow,
  streams: readonly StreamRow[],
): ChannelReach {
  const content: StreamRow[] = [];
  const history = new Set<number>();
  for (const stream of streams) {
    if (!hasContentAccess(ctx, user, stream)) continue;
    content.push(stream);
    if (
      stream.is_web_public ||
      (!stream.invite_only && !isGuest(user)) ||
      stream.history_public_to_subscribers
    ) {
      history.add(stream.id);
    }
  }
  return { content, history };
}

// ---------------------------------------------------------------------------
// Resolution

export interface ResolvedNarrow {
  conditions: NarrowCondition[];
  visibility: Visibility;
  /** A positive channel term: channel muting does not hide unreads then. */
  oneChannel: boolean;
}

/** API e-mail or, where visible, the real address; placeholders (userN@domain) by id. */
export function userByEmail(ctx: AppContext, email: string): UserRow | undefined {
  const key = email.trim().toLowerCase();
  const direct = userByEmailKey(ctx.db, key);
  if (direct) return direct;
  const domain = loadRealm(ctx).row.email_domain.toLowerCase();
  const placeholder = /^user(\d+)@(.+)$/.exec(key);
  if (placeholder && placeholder[2] === domain) return userById(ctx.db, Number(placeholder[1]));
  return undefined;
}

export function userByOperand(ctx: AppContext, me: UserRow, operand: unknown): UserRow | undefined {
  if (typeof operand === 'number') return userById(ctx.db, operand);
  const text = String(operand).trim();
  if (text === 'me') return me;
  if (/^\d+$/.test(text)) return userById(ctx.db, Number(text));
  return userByEmail(ctx, text);
}

export function channelByOperand(ctx: AppContext, user: UserRow, operand: unknown): StreamRow {
  const stream =
    typeof operand === 'number'
      ? streamById(ctx.db, operand)
      : streamByName(ctx.db, String(operand).trim());
  // Channels the user may not know about read as unknown, so none can be probed for.
  if (!stream || !hasMetadataAccess(ctx, user, stream))
    throw badOperator(`unknown channel ${operand}`);
  return stream;
}

export function dmMemberIds(ctx: AppContext, user: UserRow, operand: unknown): number[] {
  const described = Array.isArray(operand) ? `[${operand.join(', ')}]` : String(operand);
  const unknown = () => badOperator(`unknown user in ${described}`);
  const ids: number[] = [];
  if (Array.isArray(operand)) {
    for (const id of operand as number[]) {
      if (!userById(ctx.db, id)) throw unknown();
      ids.push(id);
    }
  } else {
    const parts = String(operand)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (parts.length === 0) throw unknown();
    for (const part of parts) {
      const found = /^\d+$/.test(part) ? userById(ctx.db, Number(part)) : userByEmail(ctx, part);
      if (!found) throw unknown();
      ids.push(found.id);
    }
  }
  return [...new Set([...ids, user.id])];
}

/** Zulip's can_narrow_define_conversation: a DM narrow, or a channel with a topic. */
function definesConversation(terms: NarrowTerm[]): boolean {
  if (terms.some((t) => t.operator === 'dm')) return true;
  return terms.some((t) => t.operator === 'channel') && terms.some((t) => t.operator === 'topic');
}

/**
 * Zulip refuses a narrow whose (non-negated) terms ask for a channel message
 * and a direct message at once; `-is:dm` asks for a channel message.
 */
function conversationKind(term: NarrowTerm): 'channel' | 'dm' | undefined {
  if (term.operator === 'is' && term.operand === 'dm') return term.negated ? 'channel' : 'dm';
  if (term.negated) return undefined;
  if (['channel', 'channels', 'topic'].includes(term.operator)) return 'channel';
  if (['dm', 'dm-group', 'dm-including', 'group-pm-with'].includes(term.operator)) return 'dm';
  return undefined;
}

/**
 * `with:<message id>` (Zulip's update_narrow_terms_containing_with_operator):
 * replaces the conversation terms by the conversation of that message if the
 * user may read it; otherwise the term is dropped.
 */
export function expandWith(ctx: AppContext, user: UserRow, terms: NarrowTerm[]): NarrowTerm[] {
  const withTerms = terms.filter((t) => t.operator === 'with');
  if (withTerms.length === 0) return terms;
  if (withTerms.length > 1) throw badOperatorCombination("Duplicate 'with' operators.");
  const rest = terms.filter((t) => t.operator !== 'with');
  let message: MessageRow;
  try {
    message = accessMessage(ctx, user, withTerms[0]!.operand as number).message;
  } catch {
    // A narrow that names a conversation by itself stands without the message.
    if (definesConversation(rest)) return rest;
    throw badOperator("Invalid 'with' operator");
  }
  const kept = rest.filter((t) => !['channel', 'topic', 'dm'].includes(t.operator));
  if (message.stream_id !== null) {
    return [
      ...kept,
      { operator: 'channel', operand: message.stream_id, negated: false },
      { operator: 'topic', operand: message.topic, negated: false },
    ];
  }
  return [...kept, { operator: 'dm-group', operand: message.dm_group_id, negated: false }];
}

/**
 * Below this length a prefix has too many completions to list cheaply (and
 * listing them reads their matches), so FTS5's own prefix query stays.
 */
const MIN_EXPANDED_PREFIX = 3;
const MAX_PREFIX_COMPLETIONS = 32;

/** The operand's FTS5 expression, its prefix spelled out as whole words where that is cheap. */
function searchExpression(ctx: AppContext, query: SearchOperand): string {
  if (query.prefix === null || [...query.prefix].length < MIN_EXPANDED_PREFIX) return query.fts;
  const longer = longerWordsStartingWith(ctx.db, query.prefix, MAX_PREFIX_COMPLETIONS);
  return longer === undefined ? query.fts : ftsWithCompletions(query, longer);
}

/** `is` operands that still allow history (they do not depend on per-user rows). */
export const historyCompatibleIs = new Set(['resolved', 'followed']);

export interface ResolveOptions {
  /** Zulip's include_history; false for matches_narrow (received messages only). */
  allowHistory: boolean;
  needUnreadBound: boolean;
}

export function resolveNarrow(
  ctx: AppContext,
  user: UserRow,
  rawTerms: NarrowTerm[],
  options: ResolveOptions,
): ResolvedNarrow {
  // `dm-group` only ever comes from expandWith, after clients' terms were checked.
  const terms = expandWith(ctx, user, rawTerms.map(canonicalTerm));
  const reach = channelReach(ctx, user);
  const conditions: NarrowCondition[] = [];
  let historyStreams: number[] = [];
  let oneChannel = false;
  let needUnread = options.needUnreadBound;
  const realm = loadRealm(ctx);
  const kinds = new Set<'channel' | 'dm'>();

  for (const term of terms) {
    const negated = term.negated;
    const kind = conversationKind(term);
    if (kind !== undefined) kinds.add(kind);
    if (kinds.size > 1) {
      throw badOperator('No message can be both a channel message and direct message');
    }
    switch (term.operator) {
      case 'channel': {
        const stream = channelByOperand(ctx, user, term.operand);
        conditions.push({ kind: 'stream', streamId: stream.id, negated });
        if (!negated) {
          oneChannel = true;
          if (reach.history.has(stream.id)) historyStreams.push(stream.id);
        }
        break;
      }
      case 'channels': {
        const ids = reach.content
          .filter((s) => (term.operand === 'public' ? !s.invite_only : s.is_web_public))
          .map((s) => s.id);
        conditions.push({ kind: 'streamIn', streamIds: ids, negated });
        if (!negated && !isGuest(user)) {
          historyStreams.push(...ids.filter((id) => reach.history.has(id)));
        }
        break;
      }
      case 'topic': {
        const topic = canonicalTopic(String(term.operand), realm.settings.empty_topic_display_name);
        conditions.push({ kind: 'topic', topicKey: topicKey(topic), negated });
        break;
      }
      case 'sender': {
        const sender = userByOperand(ctx, user, term.operand);
        if (!sender) throw badOperator(`unknown user ${term.operand}`);
        conditions.push({ kind: 'sender', userId: sender.id, negated });
        break;
      }
      case 'dm': {
        const groupId = dmGroupIdByMembers(ctx.db, dmMemberIds(ctx, user, term.operand));
        conditions.push(
          groupId === undefined
            ? { kind: 'none', negated }
            : { kind: 'dmGroup', dmGroupId: groupId, negated },
        );
        break;
      }
      case 'dm-group':
        conditions.push({ kind: 'dmGroup', dmGroupId: term.operand as number, negated });
        break;
      case 'dm-including':
      case 'group-pm-with': {
        const other = userByOperand(ctx, user, term.operand);
        if (!other) throw badOperator(`unknown user ${term.operand}`);
        const groupsOnly = term.operator === 'group-pm-with';
        conditions.push(
          other.id === user.id && !groupsOnly
            ? { kind: 'isDm', negated }
            : { kind: 'dmWith', userId: other.id, groupsOnly, negated },
        );
        break;
      }
      case 'is':
        switch (term.operand) {
          case 'dm':
            conditions.push({ kind: 'isDm', negated });
            break;
          case 'starred':
            conditions.push({ kind: 'rowFlag', mask: Flag.starred, negated });
            break;
          case 'mentioned':
            conditions.push({
              kind: 'rowFlag',
              mask: Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned,
              negated,
            });
            break;
          case 'alerted':
            conditions.push({ kind: 'rowFlag', mask: Flag.has_alert_word, negated });
            break;
          case 'unread':
            needUnread = true;
            conditions.push({ kind: 'unread', negated });
            break;
          case 'resolved':
            conditions.push({ kind: 'resolved', negated });
            break;
          case 'followed':
            conditions.push({ kind: 'followed', negated });
            break;
          case 'muted':
            conditions.push({ kind: 'muted', negated });
            break;
        }
        break;
      case 'in':
        // in:home is "not muted"; in:all restricts nothing.
        if (term.operand === 'home') conditions.push({ kind: 'muted', negated: !negated });
        else if (negated) conditions.push({ kind: 'none', negated: false });
        break;
      case 'has':
        conditions.push(
          term.operand === 'reaction'
            ? { kind: 'hasReaction', negated }
            : {
                kind: 'hasColumn',
                column: `has_${term.operand}` as 'has_link' | 'has_image' | 'has_attachment',
                negated,
              },
        );
        break;
      case 'id':
        conditions.push({ kind: 'id', ids: [term.operand as number], negated });
        break;
      case 'near':
        // Only an anchor (nearOfNarrow); it filters nothing.
        break;
      case 'search': {
        // The index trails the sends (search-index.ts): what was sent is found.
        catchUpSearchIndex(ctx.db);
        const query = parseSearchOperand(String(term.operand));
        conditions.push(
          query.fts === ''
            ? { kind: 'none', negated }
            : { kind: 'search', ftsQuery: searchExpression(ctx, query), negated },
        );
        break;
      }
    }
  }
  // Zulip's ok_to_include_history: per-user `is:` terms select from received messages only.
  for (const term of terms) {
    if (term.operator === 'is' && !historyCompatibleIs.has(term.operand as string)) {
      historyStreams = [];
    }
  }

  let unreadFrom = 0;
  if (needUnread) unreadFrom = unreadLowerBound(ctx.db, user.id) ?? LARGER_THAN_MAX_MESSAGE_ID + 1;
  return {
    conditions,
    visibility: {
      userId: user.id,
      contentStreamIds: reach.content.map((s) => s.id),
      historyStreamIds: options.allowHistory ? [...new Set(historyStreams)] : [],
      unreadFrom,
    },
    oneChannel,
  };
}

/** The merged search of the narrow's positive `search` terms (for highlights), or null. */
