import { type KeyboardEvent, useEffect, useMemo, useState } from 'react';
import type { ComposeTarget } from '../data/model.js';
import { useChat, useChatActions } from '../data/store-context.js';
import {
  channelSuggestions,
  emojiSuggestions,
  mentionSuggestions,
  type Suggestion,
  type Token,
  tokenAt,
  topicLinkSuggestions,
} from './autocomplete.js';
import { frequentEmoji } from './emoji-data.js';
import { useGroups } from './groups.js';
import { useEmojiChoices } from './use-emoji-choices.js';

export interface Typeahead {
  token: Token | null;
  suggestions: Suggestion[];
  active: number;
  /** The emoji list could not be loaded. */
  error: string | null;
  /** Handles the list's keys (arrows, Enter/Tab to choose, Escape); true when it did. */
  onKeyDown(event: KeyboardEvent): boolean;
  choose(suggestion: Suggestion): void;
}

/**
 * The `@`/`#`/`:` typeahead of the message text: suggestions for the token
 * before the cursor; `apply` gets the chosen suggestion and the token it replaces.
 */
export function useTypeahead(
  text: string,
  cursor: number | null,
  target: ComposeTarget | null,
  apply: (token: Token, suggestion: Suggestion) => void,
): Typeahead {
  const users = useChat((s) => s.users);
  const channels = useChat((s) => s.channels);
  const subscriptions = useChat((s) => s.subscriptions);
  const topics = useChat((s) => s.topics);
  const mutedUserIds = useChat((s) => s.mutedUserIds);
  const actions = useChatActions();
  const [active, setActive] = useState(0);
  // Escape hides the list until the person starts another token.
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);

  const found = cursor === null ? null : tokenAt(text, cursor);
  const token = found && found.start !== dismissedAt ? found : null;
  const { choices: emoji, error } = useEmojiChoices(token?.kind === 'emoji');
  const groups = useGroups(token?.kind === 'mention');

  const topicChannel = useMemo(() => {
    if (token?.kind !== 'topic') return undefined;
    for (const channel of channels.values()) if (channel.name === token.channel) return channel;
    return undefined;
  }, [token?.kind, token?.channel, channels]);
  useEffect(() => {
    if (topicChannel && !topics.has(topicChannel.stream_id))
      actions.loadTopics(topicChannel.stream_id);
  }, [topicChannel, topics, actions]);

  const suggestions = useMemo((): Suggestion[] => {
    if (!token) return [];
    switch (token.kind) {
      case 'mention':
        return mentionSuggestions(token.query, token.silent ?? false, {
          users: users.values(),
          groups: groups.values(),
          inChannel: target?.kind !== 'direct',
          preferredUserIds: new Set(target?.kind === 'direct' ? target.userIds : []),
          mutedUserIds,
        });
      case 'channel':
        return channelSuggestions(token.query, channels.values(), new Set(subscriptions.keys()));
      case 'topic':
        return topicChannel
          ? topicLinkSuggestions(
              topicChannel.name,
              token.query,
              topics.get(topicChannel.stream_id) ?? [],
            )
          : [];
      case 'emoji':
        return emoji ? emojiSuggestions(token.query, emoji, frequentEmoji()) : [];
    }
  }, [
    token,
    users,
    groups,
    channels,
    subscriptions,
    topics,
    topicChannel,
    emoji,
    target,
    mutedUserIds,
  ]);

  const tokenStart = token?.start;
  const tokenQuery = token?.query;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first suggestion is active again whenever the query changes
  useEffect(() => setActive(0), [tokenStart, tokenQuery]);
  const foundStart = found?.start ?? null;
  useEffect(() => {
    if (foundStart !== dismissedAt) setDismissedAt(null);
  }, [foundStart, dismissedAt]);

  const choose = (suggestion: Suggestion) => {
    if (token) apply(token, suggestion);
  };

  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (!token || suggestions.length === 0) return false;
    const count = suggestions.length;
    switch (event.key) {
      case 'ArrowDown':
        setActive((i) => (i + 1) % count);
        break;
      case 'ArrowUp':
        setActive((i) => (i - 1 + count) % count);
        break;
      case 'Enter':
      case 'Tab':
        if (event.shiftKey) return false;
        choose(suggestions[Math.min(active, count - 1)]!);
        break;
      case 'Escape':
        setDismissedAt(token.start);
        break;
      default:
        return false;
    }
    event.preventDefault();
    return true;
  };

  return { token, suggestions, active, error, onKeyDown, choose };
}
