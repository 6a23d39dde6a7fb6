import { type Apply, type Handlers, mapWith, mapWithout } from './event-kit.js';
import type { SavedSnippet, ScheduledMessage } from './model.js';

/** The user's own things no one else sees: scheduled messages and saved snippets. */

const onScheduledMessages: Apply<'scheduled_messages'> = (state, event) => {
  const current = state.scheduledMessages ?? new Map<number, ScheduledMessage>();
  switch (event.op) {
    case 'add': {
      const next = new Map(current);
      for (const m of event.scheduled_messages) next.set(m.scheduled_message_id, m);
      return { ...state, scheduledMessages: next };
    }
    case 'update': {
      const m = event.scheduled_message;
      return {
        ...state,
        scheduledMessages: mapWith(new Map(current), m.scheduled_message_id, m),
      };
    }
    case 'remove':
      return {
        ...state,
        scheduledMessages: mapWithout(new Map(current), Number(event.scheduled_message_id)),
      };
    default:
      return state;
  }
};

const onSavedSnippets: Apply<'saved_snippets'> = (state, event) => {
  const current = state.savedSnippets ?? new Map<number, SavedSnippet>();
  switch (event.op) {
    case 'add':
    case 'update': {
      const s = event.saved_snippet as SavedSnippet;
      return { ...state, savedSnippets: mapWith(new Map(current), s.id, s) };
    }
    case 'remove':
      return {
        ...state,
        savedSnippets: mapWithout(new Map(current), Number(event.saved_snippet_id)),
      };
    default:
      return state;
  }
};

export const personalHandlers: Handlers = {
  scheduled_messages: onScheduledMessages,
  saved_snippets: onSavedSnippets,
};
