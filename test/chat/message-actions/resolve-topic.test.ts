import { describe, expect, it } from 'vitest';
import type { ZulipApi } from '../../../renderer/src/chat/data/api.js';
import {
  isResolved,
  isResolveToggle,
  resolvedParts,
  toggleResolvedParams,
  unresolvedName,
} from '../../../renderer/src/chat/data/resolved-topic.js';
import { initialChatState } from '../../../renderer/src/chat/data/state.js';
import {
  knownMessageInTopic,
  resolveLabel,
  toggleTopicResolved,
} from '../../../renderer/src/chat/message-actions/resolve-topic.js';

describe('resolved topic names', () => {
  it('recognises the "✔ " prefix and strips every check mark on unresolve, as Zulip does', () => {
    expect(isResolved('✔ lunch')).toBe(true);
    expect(isResolved('✔lunch')).toBe(false);
    expect(unresolvedName('✔ ✔  lunch')).toBe('lunch');
    expect(resolvedParts('✔ lunch')).toEqual({ resolved: true, name: 'lunch' });
    expect(resolvedParts('lunch ✔ ')).toEqual({ resolved: false, name: 'lunch ✔ ' });
    expect(resolveLabel('lunch')).toBe('Mark as resolved');
    expect(resolveLabel('✔ lunch')).toBe('Mark as unresolved');
  });

  it('tells a resolve or unresolve from other renames, as the server does', () => {
    expect(isResolveToggle('lunch', '✔ lunch')).toBe(true);
    expect(isResolveToggle('✔ lunch', 'lunch')).toBe(true);
    expect(isResolveToggle('✔ ✔ lunch', 'lunch')).toBe(true);
    expect(isResolveToggle('lunch', '✔ dinner')).toBe(false);
    expect(isResolveToggle('lunch', 'dinner')).toBe(false);
    expect(isResolveToggle('✔ lunch', '✔ dinner')).toBe(false);
  });

  it('renames the whole topic and notifies only the new one', () => {
    expect(toggleResolvedParams('lunch')).toEqual({
      topic: '✔ lunch',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: true,
    });
    expect(toggleResolvedParams('✔ lunch').topic).toBe('lunch');
  });
});

describe('toggling through one of the topic’s messages', () => {
  const calls: { method: string; path: string; params: unknown }[] = [];
  const api = {
    call: async (method: string, path: string, params: unknown) => {
      calls.push({ method, path, params });
      return path === '/messages' ? { messages: [{ id: 77 }] } : {};
    },
  } as unknown as ZulipApi;

  it('uses the newest message the tab knows of, from topic lists or Recent conversations', () => {
    const state = initialChatState(1);
    state.topics.set(5, [{ name: 'Lunch', maxId: 40 }]);
    state.recent = [
      { key: 'channel:5:lunch', channelId: 5, topic: 'lunch', maxId: 42, senderIds: [] },
    ];
    expect(knownMessageInTopic(state, 5, 'lunch')).toBe(42);
    expect(knownMessageInTopic(state, 5, 'dinner')).toBeNull();
  });

  it('asks the server for the newest message when the tab knows none', async () => {
    calls.length = 0;
    await toggleTopicResolved(api, initialChatState(1), 5, '✔ lunch');
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/messages' });
    expect(calls[1]).toEqual({
      method: 'PATCH',
      path: '/messages/77',
      params: toggleResolvedParams('✔ lunch'),
    });
  });
});
