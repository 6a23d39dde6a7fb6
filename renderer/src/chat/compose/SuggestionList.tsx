import type { Suggestion } from './autocomplete.js';
import { EmojiGlyph } from './EmojiGlyph.js';

export interface SuggestionListProps {
  id: string;
  label: string;
  suggestions: Suggestion[];
  active: number;
  onChoose(suggestion: Suggestion): void;
}

/**
 * The typeahead popup of a combobox: the input keeps focus and points at
 * the active option with aria-activedescendant, so the options themselves
 * are never focused (mouse-down must not steal focus either).
 */
export function SuggestionList({ id, label, suggestions, active, onChoose }: SuggestionListProps) {
  if (suggestions.length === 0) return null;
  return (
    <div id={id} className="suggestions" role="listbox" aria-label={label}>
      {suggestions.map((s, i) => (
        <div
          key={s.key}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          tabIndex={-1}
          className={i === active ? 'suggestion active' : 'suggestion'}
          onMouseDown={(event) => {
            event.preventDefault();
            onChoose(s);
          }}
        >
          {s.emoji && <EmojiGlyph emoji={s.emoji} />}
          <span className="suggestion-label">{s.label}</span>
          {s.detail && <span className="suggestion-detail">{s.detail}</span>}
        </div>
      ))}
    </div>
  );
}
