import { type FormEvent, type KeyboardEvent, type RefObject, useEffect, useState } from 'react';
import type { Narrow } from '../../data/model.js';
import { narrowToSearch, parseSearch } from '../../data/narrow.js';
import { useChatStore } from '../../data/store-context.js';
import { hashFor, navigate } from '../routing.js';

/**
 * The search box: Zulip's narrow syntax (`channel:general topic:lunch`,
 * `dm:alice@example.com`, `is:starred`, free text). It shows the current
 * narrow as text, so a search can be refined.
 */
export function SearchBox({
  narrow,
  inputRef,
}: {
  narrow: Narrow | null;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const store = useChatStore();
  const current = narrow === null ? '' : narrowToSearch(narrow, store.getState());
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    const target = query === '' ? [] : parseSearch(query, store.getState());
    navigate(hashFor(target, store.getState()));
    inputRef.current?.blur();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      setText(current);
      event.currentTarget.blur();
    }
  };
  return (
    <search className="search" aria-label="Messages">
      <form onSubmit={submit}>
        <label htmlFor="search-input" className="visually-hidden">
          Search messages
        </label>
        <input
          ref={inputRef}
          id="search-input"
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Search"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          aria-keyshortcuts="/"
        />
      </form>
    </search>
  );
}
