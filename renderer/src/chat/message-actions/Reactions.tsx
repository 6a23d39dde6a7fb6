import './message-actions.css';
import { useMemo, useRef, useState } from 'react';
import { type EmojiChoice, emojiKey } from '../compose/autocomplete.js';
import { EmojiGlyph } from '../compose/EmojiGlyph.js';
import { noteEmojiUse } from '../compose/emoji-data.js';
import { ApiError } from '../data/api.js';
import type { Message } from '../data/model.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { EmojiPicker } from './EmojiPicker.js';
import { reactionImage } from './emoji-image.js';
import {
  type ReactionChip,
  reactionChips,
  reactionKey,
  reactionTooltip,
} from './reaction-chips.js';

/** Adds or removes one's reaction (`POST`/`DELETE /messages/{id}/reactions`). */
export function reactionParams(
  chip: Pick<ReactionChip, 'emojiName' | 'emojiCode' | 'reactionType'>,
) {
  return {
    emoji_name: chip.emojiName,
    emoji_code: chip.emojiCode,
    reaction_type: chip.reactionType,
  };
}

/** The reaction chips under a message (click to add or remove yours). */
export function Reactions({ message }: { message: Message }) {
  const api = useZulipApi();
  const ownUserId = useChat((s) => s.ownUserId);
  const users = useChat((s) => s.users);
  const realmEmoji = useChat((s) => s.realm.emoji);
  const [error, setError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const chips = useMemo(
    () => reactionChips(message.reactions, ownUserId),
    [message.reactions, ownUserId],
  );
  if (chips.length === 0) return null;

  const toggle = (chip: ReactionChip) => {
    setError(null);
    api
      .call(
        chip.mine ? 'DELETE' : 'POST',
        `/messages/${message.id}/reactions`,
        reactionParams(chip),
      )
      .catch((err: unknown) => setError(err instanceof ApiError ? err.message : String(err)));
  };
  // Picking an emoji already there toggles one's own reaction, as a chip's click does.
  const pick = (emoji: EmojiChoice) => {
    noteEmojiUse(emojiKey(emoji));
    const key = reactionKey({ reaction_type: emoji.type, emoji_code: emoji.code });
    const chip = chips.find((c) => c.key === key);
    toggle(
      chip ?? {
        key,
        emojiName: emoji.name,
        emojiCode: emoji.code,
        reactionType: emoji.type,
        userIds: [],
        mine: false,
      },
    );
  };
  const nameOf = (id: number) => users.get(id)?.full_name ?? 'Unknown user';

  return (
    <div className="reactions">
      {chips.map((chip) => {
        const tooltip = reactionTooltip(chip, ownUserId, nameOf);
        return (
          <button
            key={chip.key}
            type="button"
            className={chip.mine ? 'reaction mine' : 'reaction'}
            aria-pressed={chip.mine}
            aria-label={tooltip}
            title={tooltip}
            onClick={() => toggle(chip)}
          >
            <EmojiGlyph
              emoji={{
                name: chip.emojiName,
                code: chip.emojiCode,
                type: chip.reactionType,
                url: reactionImage(
                  { reaction_type: chip.reactionType, emoji_code: chip.emojiCode },
                  realmEmoji,
                  (p) => api.url(p),
                ),
              }}
            />
            <span className="reaction-count">{chip.userIds.length}</span>
          </button>
        );
      })}
      <button
        ref={addButton}
        type="button"
        className="reaction reaction-add"
        aria-label="Add emoji reaction"
        title="Add emoji reaction"
        onClick={() => setPicking(true)}
      >
        +
      </button>
      {picking && (
        <EmojiPicker
          onPick={pick}
          onClose={() => setPicking(false)}
          returnFocus={addButton.current}
        />
      )}
      {error && (
        <p className="reaction-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
