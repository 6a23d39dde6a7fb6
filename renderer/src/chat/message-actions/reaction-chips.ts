/** Reactions as chips: one per emoji, in the order each was first used, with who reacted. */
import type { Reaction } from '../data/model.js';

export interface ReactionChip {
  /** One emoji whatever name it was given: Unicode by code, others by type and code. */
  key: string;
  emojiName: string;
  emojiCode: string;
  reactionType: Reaction['reaction_type'];
  userIds: number[];
  mine: boolean;
}

export const reactionKey = (r: Pick<Reaction, 'reaction_type' | 'emoji_code'>) =>
  `${r.reaction_type}:${r.emoji_code}`;

export function reactionChips(reactions: readonly Reaction[], ownUserId: number): ReactionChip[] {
  const chips = new Map<string, ReactionChip>();
  for (const reaction of reactions) {
    const key = reactionKey(reaction);
    let chip = chips.get(key);
    if (!chip) {
      chip = {
        key,
        emojiName: reaction.emoji_name,
        emojiCode: reaction.emoji_code,
        reactionType: reaction.reaction_type,
        userIds: [],
        mine: false,
      };
      chips.set(key, chip);
    }
    if (!chip.userIds.includes(reaction.user_id)) chip.userIds.push(reaction.user_id);
    if (reaction.user_id === ownUserId) chip.mine = true;
  }
  return [...chips.values()];
}

/** "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Zulip's reaction tooltip: "You and Alice reacted with :tada:" (you first). */
export function reactionTooltip(
  chip: ReactionChip,
  ownUserId: number,
  nameOf: (userId: number) => string,
): string {
  const others = chip.userIds.filter((id) => id !== ownUserId).map(nameOf);
  const names = chip.mine ? ['You', ...others] : others;
  return `${joinNames(names)} reacted with :${chip.emojiName}:`;
}
