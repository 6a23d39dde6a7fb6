import {
  type KeyboardEvent,
  memo,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type EmojiChoice, emojiKey, pickerOrder } from '../compose/autocomplete.js';
import { EmojiGlyph } from '../compose/EmojiGlyph.js';
import {
  EMOJI_PICKER_URL,
  frequentEmoji,
  loadPickerCatalog,
  type PickerCategory,
  savedSkinTone,
  saveSkinTone,
} from '../compose/emoji-data.js';
import { useEmojiChoices } from '../compose/use-emoji-choices.js';
import { useZulipApi } from '../data/store-context.js';
import { Dialog } from '../ui/Dialog.js';

/** What searching shows at most. */
const SHOWN = 240;
/** Cells per row (message-actions.css draws the grid with as many). */
const COLUMNS = 8;
const FREQUENT_SHOWN = 16;

/** A picked emoji; `toned` is the skin-toned code when a tone applies (composing only). */
export type PickedEmoji = EmojiChoice & { toned?: string };

/** The skin tones offered, with the raised hand that shows each. */
const TONES = [
  { label: 'Default skin tone', code: '270b' },
  { label: 'Light skin tone', code: '270b-1f3fb' },
  { label: 'Medium-light skin tone', code: '270b-1f3fc' },
  { label: 'Medium skin tone', code: '270b-1f3fd' },
  { label: 'Medium-dark skin tone', code: '270b-1f3fe' },
  { label: 'Dark skin tone', code: '270b-1f3ff' },
];

/** Each category's button: one of its emoji. */
const CATEGORY_ICONS: Record<string, string> = {
  'Frequently used': '1f552',
  'Smileys & Emotion': '1f600',
  'People & Body': '1f44b',
  'Animals & Nature': '1f43b',
  'Food & Drink': '1f354',
  Activities: '26bd',
  'Travel & Places': '1f697',
  Objects: '1f4a1',
  Symbols: '1f523',
  Flags: '1f3c1',
};

interface Section {
  name: string;
  emoji: { choice: EmojiChoice; code: string }[];
}

/**
 * The emoji picker, as Zulip's: a search over every emoji's names, the
 * categories in Unicode's order (frequently used first, the organization's
 * own last) with a button to jump to each, and, when composing, a skin tone
 * (Zulip's reactions carry none). Arrow keys move in the grid; Enter in the
 * search picks the first match; Escape closes at once.
 */
export function EmojiPicker({
  onPick,
  onClose,
  returnFocus,
  title = 'Add a reaction',
  skinTones = false,
}: {
  onPick(emoji: PickedEmoji): void;
  onClose(): void;
  returnFocus: HTMLElement | null;
  title?: string;
  /** Offer skin tones: they are typed into messages as characters; reactions have none. */
  skinTones?: boolean;
}) {
  const id = useId();
  const api = useZulipApi();
  const { choices, error } = useEmojiChoices(true);
  const [catalog, setCatalog] = useState<PickerCategory[] | null>(null);
  const [catalogError, setCatalogError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [tone, setTone] = useState(() => (skinTones ? savedSkinTone() : 0));
  const body = useRef<HTMLDivElement>(null);
  // The sections keep one function across renders, so they are drawn again only when they change.
  const pickRef = useRef<(choice: EmojiChoice, code: string) => void>(() => {});
  const pickCell = useCallback(
    (choice: EmojiChoice, code: string) => pickRef.current(choice, code),
    [],
  );

  useEffect(() => {
    let live = true;
    loadPickerCatalog(api.url(EMOJI_PICKER_URL)).then(
      (loaded) => live && setCatalog(loaded),
      (err: unknown) => live && setCatalogError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  const sections = useMemo(
    () => (choices && catalog ? pickerSections(choices, catalog, tone) : null),
    [choices, catalog, tone],
  );
  const results = useMemo(
    () =>
      choices && query.trim() !== ''
        ? pickerOrder(query.trim(), choices, frequentEmoji(), SHOWN).map((choice) => ({
            choice,
            code: choice.code,
          }))
        : null,
    [choices, query],
  );

  const cells = () => Array.from(body.current?.querySelectorAll<HTMLElement>('.emoji-cell') ?? []);
  /** Roving focus over every cell, kept in the DOM: re-rendering 1,800 buttons per key would lag. */
  const focusCell = (index: number) => {
    const all = cells();
    const next = all[Math.max(0, Math.min(all.length - 1, index))];
    if (!next) return;
    for (const cell of all) cell.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  };
  const onGridKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: COLUMNS,
      ArrowUp: -COLUMNS,
    };
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    const at = cells().indexOf(document.activeElement as HTMLElement);
    focusCell(at + move);
  };

  const shownSections: Section[] | null = results
    ? [{ name: 'Search results', emoji: results }]
    : sections;
  const problem = error ?? catalogError;

  return (
    <Dialog title={title} onClose={onClose} returnFocus={returnFocus} className="emoji-picker">
      {(close) => {
        const pick = (choice: EmojiChoice, code: string) => {
          onPick(code !== choice.code ? { ...choice, toned: code } : choice);
          close();
        };
        pickRef.current = pick;
        return (
          // Escape closes at once, wherever the focus is (a search field would first clear itself).
          // biome-ignore lint/a11y/noStaticElementInteractions: the dialog's own key handling
          <div
            className="emoji-picker-content"
            onKeyDown={(event) => {
              if (event.key !== 'Escape') return;
              event.preventDefault();
              event.stopPropagation();
              close();
            }}
          >
            <div className="emoji-picker-top">
              <input
                type="search"
                className="emoji-search"
                aria-label="Search emoji"
                aria-controls={`${id}-body`}
                placeholder="Search emoji"
                // The dialog exists to search and pick.
                autoFocus
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                onKeyDown={(event) => {
                  const first = shownSections?.[0]?.emoji[0];
                  if (event.key === 'Enter' && first) {
                    event.preventDefault();
                    pick(first.choice, first.code);
                  } else if (event.key === 'ArrowDown') {
                    event.preventDefault();
                    focusCell(0);
                  }
                }}
              />
              {skinTones && (
                <SkinTones
                  tone={tone}
                  onChange={(next) => {
                    setTone(next);
                    saveSkinTone(next);
                  }}
                />
              )}
            </div>
            {!results && sections && (
              <nav className="emoji-categories" aria-label="Emoji categories">
                {sections.map((section) => (
                  <button
                    key={section.name}
                    type="button"
                    className="emoji-category"
                    aria-label={section.name}
                    title={section.name}
                    onClick={() =>
                      body.current
                        ?.querySelector(`[data-category="${section.name}"]`)
                        ?.scrollIntoView({ block: 'start' })
                    }
                  >
                    {CATEGORY_ICONS[section.name] ? (
                      <span
                        className={`emoji emoji-${CATEGORY_ICONS[section.name]}`}
                        aria-hidden="true"
                      />
                    ) : (
                      <span aria-hidden="true">★</span>
                    )}
                  </button>
                ))}
              </nav>
            )}
            {problem && <p role="alert">{problem}</p>}
            {!shownSections && !problem && <p>Loading emoji…</p>}
            {results?.length === 0 && <p>No emoji match “{query}”.</p>}
            {/* biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between the cells inside */}
            <div id={`${id}-body`} ref={body} className="emoji-picker-body" onKeyDown={onGridKey}>
              {shownSections?.map((section, i) => (
                <EmojiSection
                  key={section.name}
                  section={section}
                  first={i === 0}
                  hideHeading={results !== null}
                  onPick={pickCell}
                />
              ))}
            </div>
            <div className="actions">
              <button type="button" className="button" onClick={close}>
                Cancel
              </button>
            </div>
          </div>
        );
      }}
    </Dialog>
  );
}

/** The sections when not searching: frequently used, Unicode's categories, the organization's own. */
export function pickerSections(
  choices: EmojiChoice[],
  catalog: PickerCategory[],
  tone: number,
): Section[] {
  const byCode = new Map<string, EmojiChoice>();
  const byKey = new Map<string, EmojiChoice>();
  for (const choice of choices) {
    byKey.set(emojiKey(choice), choice);
    if (choice.type === 'unicode_emoji') byCode.set(choice.code, choice);
  }
  const toneOf = new Map<string, string[]>();
  const sections: Section[] = [];
  for (const category of catalog) {
    const emoji: Section['emoji'] = [];
    for (const entry of category.emoji) {
      const choice = byCode.get(entry.code);
      if (!choice) continue;
      if (entry.tones) toneOf.set(entry.code, entry.tones);
      emoji.push({ choice, code: tone > 0 && entry.tones ? entry.tones[tone - 1]! : entry.code });
    }
    if (emoji.length > 0) sections.push({ name: category.name, emoji });
  }
  const frequent = frequentEmoji()
    .map((key) => byKey.get(key))
    .filter((choice): choice is EmojiChoice => choice !== undefined)
    .slice(0, FREQUENT_SHOWN)
    .map((choice) => {
      const tones = toneOf.get(choice.code);
      return { choice, code: tone > 0 && tones ? tones[tone - 1]! : choice.code };
    });
  if (frequent.length > 0) sections.unshift({ name: 'Frequently used', emoji: frequent });
  const custom = choices
    .filter((choice) => choice.type !== 'unicode_emoji')
    .map((choice) => ({ choice, code: choice.code }));
  if (custom.length > 0) sections.push({ name: 'Custom', emoji: custom });
  return sections;
}

/** One category's heading and cells; drawn again only when its emoji or the tone change. */
const EmojiSection = memo(function EmojiSection({
  section,
  first,
  hideHeading,
  onPick,
}: {
  section: Section;
  first: boolean;
  hideHeading: boolean;
  onPick(choice: EmojiChoice, code: string): void;
}) {
  const headingId = useId();
  return (
    <section className="emoji-section" data-category={section.name} aria-labelledby={headingId}>
      <h3 id={headingId} className={hideHeading ? 'visually-hidden' : 'emoji-section-title'}>
        {section.name}
      </h3>
      <div className="emoji-picker-grid">
        {section.emoji.map(({ choice, code }, i) => (
          <button
            key={emojiKey(choice)}
            type="button"
            className="emoji-cell"
            tabIndex={first && i === 0 ? 0 : -1}
            aria-label={choice.name.replaceAll('_', ' ')}
            title={`:${choice.name}:`}
            onClick={() => onPick(choice, code)}
          >
            <EmojiGlyph emoji={{ ...choice, code }} />
          </button>
        ))}
      </div>
    </section>
  );
});

/** The skin tone for emoji that have them, as a row of raised hands. */
function SkinTones({ tone, onChange }: { tone: number; onChange(tone: number): void }) {
  return (
    <fieldset className="emoji-tones">
      <legend className="visually-hidden">Skin tone</legend>
      {TONES.map((option, i) => (
        <button
          key={option.code}
          type="button"
          className="emoji-tone"
          aria-label={option.label}
          title={option.label}
          aria-pressed={tone === i}
          onClick={() => onChange(i)}
        >
          <span className={`emoji emoji-${option.code}`} aria-hidden="true" />
        </button>
      ))}
    </fieldset>
  );
}
