/** Scheduled messages and saved snippets: from register, kept by their events. */
import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  type EventContext,
  noEffects,
  type ZulipEvent,
} from '../../../renderer/src/chat/data/events.js';
import type { ChatState } from '../../../renderer/src/chat/data/model.js';
import type { RegisterAnswer } from '../../../renderer/src/chat/data/state.js';
import { stateFromRegister } from '../../../renderer/src/chat/data/state.js';
import { emptyBook } from '../../../renderer/src/chat/data/unread.js';

/** A register answer as the wire brings it: JSON, here sometimes deliberately off-shape. */
const fromWire = (answer: object) => answer as RegisterAnswer;

const scheduled = (id: number, at: number) => ({
  scheduled_message_id: id,
  type: 'stream',
  to: 4,
  topic: 'plans',
  content: `m${id}`,
  rendered_content: `<p>m${id}</p>`,
  scheduled_delivery_timestamp: at,
  failed: false,
});

describe("the user's scheduled messages and saved snippets", () => {
  it('come from register and follow add, update and remove events', () => {
    let state: ChatState = stateFromRegister(
      fromWire({
        user_id: 1,
        scheduled_messages: [scheduled(5, 100)],
        saved_snippets: [{ id: 2, title: 'Hi', content: 'Hello!', date_created: 1 }],
      }),
      0,
    );
    expect([...state.scheduledMessages!.keys()]).toEqual([5]);
    expect(state.savedSnippets!.get(2)?.title).toBe('Hi');

    const ctx: EventContext = { book: emptyBook(), effects: noEffects(), nowSecs: 0 };
    const apply = (event: Record<string, unknown>) => {
      state = applyEvent(state, { id: 0, ...event } as ZulipEvent, ctx);
    };
    apply({ type: 'scheduled_messages', op: 'add', scheduled_messages: [scheduled(6, 50)] });
    apply({
      type: 'scheduled_messages',
      op: 'update',
      scheduled_message: { ...scheduled(5, 100), content: 'edited' },
    });
    expect(state.scheduledMessages!.get(5)?.content).toBe('edited');
    apply({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: 6 });
    expect([...state.scheduledMessages!.keys()]).toEqual([5]);

    apply({
      type: 'saved_snippets',
      op: 'add',
      saved_snippet: { id: 3, title: 'Bye', content: 'Goodbye', date_created: 2 },
    });
    apply({ type: 'saved_snippets', op: 'remove', saved_snippet_id: 2 });
    expect([...state.savedSnippets!.values()].map((s) => s.title)).toEqual(['Bye']);
  });
});
