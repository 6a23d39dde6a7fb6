/** "X is typing…" as Zulip's web app words it, for one, two, three and more typists. */
import { describe, expect, it } from 'vitest';
import { typingNotices } from '../../../renderer/src/chat/views/feed/TypingNotice.js';

describe('typingNotices', () => {
  it("words the typists as Zulip's typing notifications do", () => {
    expect(typingNotices([])).toEqual([]);
    expect(typingNotices(['Ada'])).toEqual(['Ada is typing…']);
    expect(typingNotices(['Ada', 'Mo', 'Gus'])).toEqual([
      'Ada is typing…',
      'Mo is typing…',
      'Gus is typing…',
    ]);
    expect(typingNotices(['Ada', 'Mo', 'Gus', 'Mel'])).toEqual(['Several people are typing…']);
  });
});
