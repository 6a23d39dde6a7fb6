import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { activeRealmEmojiByName, realmEmojiById } from '../db/queries/realm-emoji.js';
import { isUnicodeEmojiCode, unicodeEmojiCode } from '../markdown/index.js';

/**
 * The namespaces of `emoji_code`, named by `reaction_type`. Zulip calls its
 * built-in extra emoji (only "zulip", whose code is its name)
 * `zulip_extra_emoji`; the spec names the same namespace
 * `service_extra_emoji`. Both are accepted, and a lookup by name answers
 * Zulip's name, which every Zulip client knows.
 */
export const ReactionType = {
  unicode: 'unicode_emoji',
  realm: 'realm_emoji',
  extra: 'zulip_extra_emoji',
  extraSpecName: 'service_extra_emoji',
} as const;

const EXTRA_EMOJI = ['zulip'];

/** An emoji as reactions and statuses store it: a code within a type's namespace. */
export interface Emoji {
  code: string;
  type: string;
}

/** Zulip's get_emoji_data: a custom emoji first, then Zulip's own, then Unicode. */
export function emojiByName(ctx: AppContext, name: string): Emoji {
  const custom = activeRealmEmojiByName(ctx.db, name);
  if (custom) return { code: String(custom.id), type: ReactionType.realm };
  if (EXTRA_EMOJI.includes(name)) return { code: name, type: ReactionType.extra };
  const code = unicodeEmojiCode(name);
  if (code) return { code, type: ReactionType.unicode };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Zulip's check_emoji_request: the code exists in its type's namespace and the name belongs to it. */
export function checkEmoji(ctx: AppContext, name: string, emoji: Emoji): void {
  switch (emoji.type) {
    case ReactionType.realm: {
      const custom = /^\d+$/.test(emoji.code)
        ? realmEmojiById(ctx.db, Number(emoji.code))
        : undefined;
      if (!custom) throw badRequest('Invalid custom emoji.');
      if (custom.name !== name) throw badRequest('Invalid custom emoji name.');
      if (custom.deactivated) throw badRequest('This custom emoji has been deactivated.');
      return;
    }
    case ReactionType.extra:
    case ReactionType.extraSpecName:
      if (!EXTRA_EMOJI.includes(emoji.code)) throw badRequest('Invalid emoji code.');
      if (name !== emoji.code) throw badRequest('Invalid emoji name.');
      return;
    case ReactionType.unicode:
      if (!isUnicodeEmojiCode(emoji.code)) throw badRequest('Invalid emoji code.');
      if (unicodeEmojiCode(name) !== emoji.code) throw badRequest('Invalid emoji name.');
      return;
    default:
      throw badRequest('Invalid emoji type.');
  }
}
