import { useId, useMemo, useRef, useState } from 'react';
import { type EmojiChoice, emojiKey, pickerOrder } from '../compose/autocomplete.js';
import { EmojiGlyph } from '../compose/EmojiGlyph.js';
import { frequentEmoji } from '../compose/emoji-data.js';
import { useEmojiChoices } from '../compose/use-emoji-choices.js';
import { Dialog } from './Dialog.js';

/** How many emoji the grid shows at once; searching narrows the rest. */
const SHOWN = 240;
const COLUMNS = 8;

/**
 * The emoji picker: a search field over every emoji's names, a grid with
 * the person's frequent emoji (then Zulip's popular ones) first. Arrow keys
 * move in the grid; Enter in the search picks the first match.
 */
export function EmojiPicker({
  onPick,
  onClose,
  returnFocus,
}: {
  onPick(emoji: EmojiChoice): void;
  onClose(): void;
  returnFocus: HTMLElement | null;
}) {
  const id = useId();
  const { choices, error } = useEmojiChoices(true);
  const [query, setQuery] = useState('');
  const [focused, setFocused] = useState(0);
  const grid = useRef<HTMLFieldSetElement>(null);
  const shown = useMemo(
    () => (choices ? pickerOrder(query.trim(), choices, frequentEmoji(), SHOWN) : []),
    [choices, query],
  );

  const focusCell = (index: number) => {
    const next = Math.max(0, Math.min(shown.length - 1, index));
    setFocused(next);
    grid.current?.querySelectorAll('button')[next]?.focus();
  };

  return (
    <Dialog
      title="Add a reaction"
      onClose={onClose}
      returnFocus={returnFocus}
      className="emoji-picker"
    >
      {(close) => (
        <>
          <input
            type="search"
            className="emoji-search"
            aria-label="Search emoji"
            aria-controls={`${id}-grid`}
            placeholder="Search emoji"
            // The dialog exists to search and pick.
            autoFocus
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setFocused(0);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && shown[0]) {
                event.preventDefault();
                onPick(shown[0]);
                close();
              } else if (event.key === 'ArrowDown' && shown.length > 0) {
                event.preventDefault();
                focusCell(0);
              }
            }}
          />
          {error && <p role="alert">{error}</p>}
          {!choices && !error && <p>Loading emoji…</p>}
          {choices && shown.length === 0 && <p>No emoji match “{query}”.</p>}
          <fieldset
            id={`${id}-grid`}
            ref={grid}
            className="emoji-grid"
            aria-label="Emoji"
            onKeyDown={(event) => {
              const moves: Record<string, number> = {
                ArrowRight: 1,
                ArrowLeft: -1,
                ArrowDown: COLUMNS,
                ArrowUp: -COLUMNS,
              };
              const move = moves[event.key];
              if (move === undefined) return;
              event.preventDefault();
              focusCell(focused + move);
            }}
          >
            {shown.map((emoji, i) => (
              <button
                key={emojiKey(emoji)}
                type="button"
                className="emoji-cell"
                tabIndex={i === focused ? 0 : -1}
                aria-label={emoji.name.replaceAll('_', ' ')}
                title={`:${emoji.name}:`}
                onFocus={() => setFocused(i)}
                onClick={() => {
                  onPick(emoji);
                  close();
                }}
              >
                <EmojiGlyph emoji={emoji} />
              </button>
            ))}
          </fieldset>
          <div className="actions">
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
