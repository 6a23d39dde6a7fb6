/** Search results' highlights: which HTML the feed draws for a message and its topic. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../renderer/src/chat/data/model.js';
import {
  contentToShow,
  highlightedTopic,
  isKeywordSearch,
} from '../../../renderer/src/chat/views/feed/search-highlight.js';

function message(extra: Partial<Message> = {}): Message {
  return {
    id: 1,
    type: 'stream',
    sender_id: 2,
    sender_full_name: 'Ada',
    sender_email: 'ada@x.org',
    avatar_url: null,
    content: '<p>lunch at noon</p>',
    stream_id: 5,
    subject: 'Lunch & <plans>',
    display_recipient: 'general',
    timestamp: 0,
    flags: [],
    reactions: [],
    submessages: [],
    ...extra,
  };
}

describe('search highlights', () => {
  it('counts only positive free-text terms as a keyword search', () => {
    expect(isKeywordSearch([{ operator: 'search', operand: 'lunch' }])).toBe(true);
    expect(
      isKeywordSearch([
        { operator: 'channel', operand: 5 },
        { operator: 'search', operand: 'x' },
      ]),
    ).toBe(true);
    expect(isKeywordSearch([{ operator: 'channel', operand: 5 }])).toBe(false);
    expect(isKeywordSearch([{ operator: 'search', operand: 'x', negated: true }])).toBe(false);
    expect(isKeywordSearch([])).toBe(false);
  });

  it('draws match_content in a keyword search and the content elsewhere', () => {
    const highlighted = '<p><span class="highlight">lunch</span> at noon</p>';
    const found = message({ match_content: highlighted });
    expect(contentToShow(found, true)).toBe(highlighted);
    expect(contentToShow(found, false)).toBe('<p>lunch at noon</p>');
    expect(contentToShow(message(), true)).toBe('<p>lunch at noon</p>');
  });

  it('draws match_subject while it still spells the topic', () => {
    const html = '<span class="highlight">Lunch</span> &amp; &lt;plans&gt;';
    expect(highlightedTopic(message({ match_subject: html }), true)).toBe(html);
    expect(highlightedTopic(message({ match_subject: html }), false)).toBeNull();
    // Nothing highlighted: the plain topic (with its general-chat and resolved looks).
    expect(
      highlightedTopic(message({ match_subject: 'Lunch &amp; &lt;plans&gt;' }), true),
    ).toBeNull();
    // Moved since the search: the old topic's highlight is not shown.
    expect(highlightedTopic(message({ match_subject: html, subject: 'Dinner' }), true)).toBeNull();
  });
});
