/** Which message is edited in place: one at a time, ended only by its own editor. */
import { describe, expect, it } from 'vitest';
import {
  inlineEditingId,
  startInlineEdit,
  stopInlineEdit,
} from '../../../renderer/src/chat/message-actions/inline-edit.js';

describe('inline edit', () => {
  it('edits one message at a time', () => {
    expect(inlineEditingId()).toBeNull();
    startInlineEdit(5);
    expect(inlineEditingId()).toBe(5);
    startInlineEdit(7);
    expect(inlineEditingId()).toBe(7);
    // The first editor closing late does not end the second's edit.
    stopInlineEdit(5);
    expect(inlineEditingId()).toBe(7);
    stopInlineEdit(7);
    expect(inlineEditingId()).toBeNull();
  });
});
