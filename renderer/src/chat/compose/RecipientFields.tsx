import { useEffect, useId, useMemo, useState } from 'react';
import { useChat, useChatActions } from '../data/store-context.js';
import { recipientSuggestions, type Suggestion } from './autocomplete.js';
import { SuggestionList } from './SuggestionList.js';

/** The recipient fields while the person edits them: a channel may not be chosen yet. */
export type EditingTarget =
  | { kind: 'channel'; channelId: number | null; topic: string }
  | { kind: 'direct'; userIds: number[] };

export interface RecipientFieldsProps {
  value: EditingTarget;
  onChange(value: EditingTarget): void;
  /** Focus lands here when the box opens without a recipient. */
  firstFieldRef?: React.Ref<HTMLSelectElement & HTMLInputElement>;
}

/** Channel and topic, or the people of a direct message. */
export function RecipientFields({ value, onChange, firstFieldRef }: RecipientFieldsProps) {
  return value.kind === 'channel' ? (
    <ChannelAndTopic value={value} onChange={onChange} firstFieldRef={firstFieldRef} />
  ) : (
    <DirectRecipients value={value} onChange={onChange} firstFieldRef={firstFieldRef} />
  );
}

function ChannelAndTopic({
  value,
  onChange,
  firstFieldRef,
}: {
  value: Extract<EditingTarget, { kind: 'channel' }>;
  onChange(value: EditingTarget): void;
  firstFieldRef?: React.Ref<HTMLSelectElement & HTMLInputElement>;
}) {
  const id = useId();
  const subscriptions = useChat((s) => s.subscriptions);
  const topics = useChat((s) => s.topics);
  const actions = useChatActions();
  const channels = useMemo(
    () =>
      [...subscriptions.values()]
        .filter((s) => !s.is_archived)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [subscriptions],
  );
  const channelTopics = value.channelId === null ? undefined : topics.get(value.channelId);
  useEffect(() => {
    if (value.channelId !== null && !channelTopics) actions.loadTopics(value.channelId);
  }, [value.channelId, channelTopics, actions]);

  return (
    <div className="compose-recipient">
      <label className="visually-hidden" htmlFor={`${id}-channel`}>
        Channel
      </label>
      <select
        id={`${id}-channel`}
        ref={firstFieldRef}
        className="compose-channel"
        value={value.channelId ?? ''}
        onChange={(event) =>
          onChange({
            ...value,
            channelId: event.target.value === '' ? null : Number(event.target.value),
          })
        }
      >
        <option value="">Choose a channel</option>
        {channels.map((c) => (
          <option key={c.stream_id} value={c.stream_id}>
            #{c.name}
          </option>
        ))}
      </select>
      <span aria-hidden="true" className="compose-recipient-separator">
        &gt;
      </span>
      <label className="visually-hidden" htmlFor={`${id}-topic`}>
        Topic
      </label>
      <input
        id={`${id}-topic`}
        className="compose-topic"
        type="text"
        placeholder="Topic"
        autoComplete="off"
        list={`${id}-topics`}
        value={value.topic}
        onChange={(event) => onChange({ ...value, topic: event.target.value })}
      />
      <datalist id={`${id}-topics`}>
        {(channelTopics ?? []).slice(0, 50).map((t) => (
          <option key={t.name} value={t.name} />
        ))}
      </datalist>
    </div>
  );
}

function DirectRecipients({
  value,
  onChange,
  firstFieldRef,
}: {
  value: Extract<EditingTarget, { kind: 'direct' }>;
  onChange(value: EditingTarget): void;
  firstFieldRef?: React.Ref<HTMLSelectElement & HTMLInputElement>;
}) {
  const id = useId();
  const users = useChat((s) => s.users);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const chosen = useMemo(() => new Set(value.userIds), [value.userIds]);
  const matches = useMemo(
    () => (open ? recipientSuggestions(query, users.values(), chosen) : []),
    [open, query, users, chosen],
  );
  const suggestions: Suggestion[] = matches.map((u) => ({
    key: String(u.user_id),
    label: u.full_name,
    detail: u.email,
    insert: '',
    thenSpace: false,
  }));

  const add = (userId: number) => {
    onChange({ kind: 'direct', userIds: [...value.userIds, userId] });
    setQuery('');
    setActive(0);
  };
  const remove = (userId: number) =>
    onChange({ kind: 'direct', userIds: value.userIds.filter((x) => x !== userId) });

  return (
    <div className="compose-recipient compose-dm-recipients">
      <span className="compose-dm-label" id={`${id}-label`}>
        To:
      </span>
      <ul className="chips" aria-labelledby={`${id}-label`}>
        {value.userIds.map((userId) => {
          const name = users.get(userId)?.full_name ?? `User ${userId}`;
          return (
            <li key={userId} className="chip">
              {name}
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${name}`}
                onClick={() => remove(userId)}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
      <div className="combobox">
        <input
          ref={firstFieldRef}
          type="text"
          role="combobox"
          aria-label="Add a person"
          aria-expanded={suggestions.length > 0}
          aria-controls={`${id}-people`}
          aria-autocomplete="list"
          aria-activedescendant={suggestions.length > 0 ? `${id}-people-${active}` : undefined}
          placeholder={value.userIds.length === 0 ? 'Add one or more people' : 'Add another person'}
          autoComplete="off"
          value={query}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Backspace' && query === '' && value.userIds.length > 0) {
              remove(value.userIds[value.userIds.length - 1]!);
            } else if (suggestions.length === 0) {
              return;
            } else if (event.key === 'ArrowDown') {
              setActive((i) => (i + 1) % suggestions.length);
            } else if (event.key === 'ArrowUp') {
              setActive((i) => (i - 1 + suggestions.length) % suggestions.length);
            } else if ((event.key === 'Enter' || event.key === 'Tab') && query !== '') {
              add(matches[Math.min(active, matches.length - 1)]!.user_id);
            } else if (event.key === 'Escape') {
              setOpen(false);
            } else {
              return;
            }
            event.preventDefault();
          }}
        />
        <SuggestionList
          id={`${id}-people`}
          label="People"
          suggestions={suggestions}
          active={active}
          onChoose={(s) => add(Number(s.key))}
        />
      </div>
    </div>
  );
}
