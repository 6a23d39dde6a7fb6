import './search.css';
import {
  type FormEvent,
  type KeyboardEvent,
  type RefObject,
  useEffect,
  useId,
  useMemo,
  useState,
} from 'react';
import type { ChatState, Narrow } from '../../data/model.js';
import { canonicalOperatorOf, narrowToSearch, parseSearch } from '../../data/narrow.js';
import { useChat, useChatActions, useChatStore } from '../../data/store-context.js';
import { Avatar } from '../../ui/Avatar.js';
import { hashFor, navigate } from '../routing.js';
import { type SearchSuggestion, searchSuggestions } from './search-suggestions.js';

/**
 * The search box: Zulip's narrow syntax (`channel:general topic:lunch`,
 * `dm:alice@example.com`, `is:starred`, free text). It shows the current
 * narrow as text, so a search can be refined. As you type it suggests
 * operators, channels, topics and people (`search-suggestions.ts`): ↑/↓ pick
 * one, Enter goes to it, Tab completes the text with it.
 */
export function SearchBox({
  narrow,
  inputRef,
}: {
  narrow: Narrow | null;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const store = useChatStore();
  const actions = useChatActions();
  const current = narrow === null ? '' : narrowToSearch(narrow, store.getState());
  const [text, setText] = useState(current);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  useEffect(() => setText(current), [current]);
  const listId = useId();

  // What the suggestions read: they follow these parts of the state while the list is open.
  const topics = useChat((s) => s.topics);
  const users = useChat((s) => s.users);
  const channels = useChat((s) => s.channels);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the state parts are what the suggestions read through getState
  const suggestions = useMemo(
    () => (open ? searchSuggestions(text, store.getState()) : []),
    [open, text, store, topics, users, channels],
  );
  useTopicsOfTypedChannel(open ? text : '', store, actions.loadTopics);

  const show = (query: string) => {
    const target = query === '' ? [] : parseSearch(query, store.getState());
    navigate(hashFor(target, store.getState()));
    setOpen(false);
    inputRef.current?.blur();
  };
  const edit = (value: string) => {
    setText(value);
    setOpen(true);
    // The first suggestion is the text as typed; an empty box highlights nothing.
    setActive(value.trim() === '' ? -1 : 0);
  };
  const choose = (suggestion: SearchSuggestion) => {
    if (suggestion.incomplete) {
      edit(suggestion.text);
      inputRef.current?.focus();
      return;
    }
    setText(suggestion.text);
    show(suggestion.text);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = open && active >= 0 ? suggestions[active] : undefined;
    if (chosen) choose(chosen);
    else show(text.trim());
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = suggestions.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!open) {
          setOpen(true);
          setActive(0);
        } else if (count > 0) {
          const step = event.key === 'ArrowDown' ? 1 : -1;
          setActive((i) => wrap(i, step, count));
        }
        event.preventDefault();
        return;
      }
      case 'Tab': {
        // Tab completes with the highlighted suggestion (or the first one that adds something).
        if (event.shiftKey || !open || count === 0) return;
        const chosen =
          (active > 0 ? suggestions[active] : undefined) ??
          suggestions.find((s) => s.text !== text.trim());
        if (!chosen) return;
        event.preventDefault();
        edit(chosen.incomplete ? chosen.text : `${chosen.text} `);
        return;
      }
      case 'Escape':
        // First the list closes; then the text goes back to the narrow shown.
        event.preventDefault();
        if (open && count > 0) {
          setOpen(false);
          return;
        }
        setText(current);
        event.currentTarget.blur();
        return;
    }
  };
  const expanded = open && suggestions.length > 0;
  return (
    <search className="search" aria-label="Messages">
      <form onSubmit={submit}>
        <label htmlFor="search-input" className="visually-hidden">
          Search
        </label>
        <input
          ref={inputRef}
          id="search-input"
          type="search"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          value={text}
          onChange={(event) => edit(event.target.value)}
          onFocus={() => {
            setOpen(true);
            setActive(text.trim() === '' ? -1 : 0);
          }}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          placeholder="Search"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          aria-keyshortcuts="/"
        />
        {expanded && (
          <SuggestionRows id={listId} suggestions={suggestions} active={active} onChoose={choose} />
        )}
      </form>
    </search>
  );
}

/** The next index with ↑/↓, wrapping around the list. */
function wrap(index: number, step: number, count: number): number {
  if (index < 0) return step > 0 ? 0 : count - 1;
  return (index + step + count) % count;
}

/** Loads the topics of the channel typed so far, so `topic:` can offer them. */
function useTopicsOfTypedChannel(
  text: string,
  store: { getState(): ChatState },
  loadTopics: (channelId: number) => void,
) {
  const channelId = useMemo(() => {
    if (!/\bchannel:|\bstream:/i.test(text)) return null;
    const term = parseSearch(text, store.getState()).find(
      (t) => canonicalOperatorOf(t.operator) === 'channel' && !t.negated,
    );
    return typeof term?.operand === 'number' ? term.operand : null;
  }, [text, store]);
  useEffect(() => {
    if (channelId !== null && !store.getState().topics.has(channelId)) loadTopics(channelId);
  }, [channelId, store, loadTopics]);
}

function SuggestionRows({
  id,
  suggestions,
  active,
  onChoose,
}: {
  id: string;
  suggestions: SearchSuggestion[];
  active: number;
  onChoose(suggestion: SearchSuggestion): void;
}) {
  const users = useChat((s) => s.users);
  return (
    <div id={id} className="search-suggestions" role="listbox" aria-label="Search suggestions">
      {suggestions.map((s, i) => {
        const user = s.userId !== undefined ? users.get(s.userId) : undefined;
        return (
          <div
            key={s.text}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === active}
            tabIndex={-1}
            className={i === active ? 'search-suggestion active' : 'search-suggestion'}
            // The input keeps focus: mouse-down must not blur it before the choice.
            onMouseDown={(event) => {
              event.preventDefault();
              onChoose(s);
            }}
          >
            {user && <Avatar url={user.avatar_url} name={user.full_name} size={20} />}
            <span className="search-suggestion-description">{s.description}</span>
            <code className="search-suggestion-text">{s.text}</code>
          </div>
        );
      })}
    </div>
  );
}
