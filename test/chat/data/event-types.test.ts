import { describe, expect, it } from 'vitest';
import type { Apply, Handlers } from '../../../renderer/src/chat/data/event-kit.js';
import { initialChatState, type RegisterAnswer } from '../../../renderer/src/chat/data/state.js';

/**
 * The chat's event handlers and register answer take their types from the
 * server's API module: these lines fail `npm run typecheck` (an unused
 * @ts-expect-error is an error) if the types loosen back to `any`.
 */
describe("the chat's event types", () => {
  it('give each handler the fields of its own event type, and only those', () => {
    const onReaction: Apply<'reaction'> = (state, event) => {
      const emoji: string = event.emoji_name;
      // @ts-expect-error: a reaction event has no `subject`.
      const topic: string = event.subject;
      return emoji && topic ? state : state;
    };
    const handlers: Handlers = {
      reaction: onReaction,
      // @ts-expect-error: a reaction handler is not a typing handler.
      typing: onReaction,
    };
    expect(Object.keys(handlers)).toEqual(['reaction', 'typing']);
  });

  it("type the drafts the chat keeps as the API's Draft", () => {
    const draft = initialChatState().drafts.get(1);
    const content: string | undefined = draft?.content;
    // @ts-expect-error: a draft has no `subject` (its topic is `topic`).
    const subject: unknown = draft?.subject;
    expect([content, subject]).toEqual([undefined, undefined]);
  });

  it('type the register answer', () => {
    const answer: RegisterAnswer = { result: 'success', msg: '', queue_id: 'q', last_event_id: -1 };
    // @ts-expect-error: register has no `no_such_key`.
    expect(answer.no_such_key).toBeUndefined();
  });
});
