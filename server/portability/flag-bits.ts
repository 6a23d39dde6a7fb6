import { Flag } from '../shared/flags.js';
import type { ExportProfile } from './profiles/index.js';

/**
 * Hearth's flag bits (shared/flags.ts) and Zulip's UserMessage bitfield
 * (the profile's `flags`, AbstractUserMessage.ALL_FLAGS order) agree up to
 * topic_wildcard_mentioned and differ above: Hearth has no group_mentioned,
 * force_expand/collapse, is_private or push bits, and numbers alert words
 * and historical lower. Translation goes name by name.
 */
const shared = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'has_alert_word',
  'historical',
] as const;

function bit(profile: ExportProfile, name: string): number {
  const value = profile.flags[name];
  if (value === undefined) throw new Error(`profile ${profile.profile} has no flag ${name}`);
  return value;
}

/** Hearth bits of one user's message as Zulip writes them (`is_private` for DMs). */
export function toZulipFlags(profile: ExportProfile, hearth: number, isPrivate: boolean): number {
  let zulip = 0;
  for (const name of shared) if (hearth & Flag[name]) zulip |= bit(profile, name);
  if (isPrivate) zulip |= bit(profile, 'is_private');
  return zulip;
}

/**
 * Zulip bits as Hearth stores them: a group mention is a mention (Zulip sets
 * both when it sends; older rows may carry only group_mentioned), the
 * bookkeeping bits are dropped.
 */
export function toHearthFlags(profile: ExportProfile, zulip: number): number {
  let hearth = 0;
  for (const name of shared) if (zulip & bit(profile, name)) hearth |= Flag[name];
  if (zulip & bit(profile, 'group_mentioned')) hearth |= Flag.mentioned;
  return hearth;
}
