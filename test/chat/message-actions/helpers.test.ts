import { describe, expect, it } from 'vitest';
import { emojiChoices, pickerOrder } from '../../../renderer/src/chat/compose/autocomplete.js';
import type { Message, Reaction } from '../../../renderer/src/chat/data/model.js';
import { editParams } from '../../../renderer/src/chat/message-actions/edit-request.js';
import {
  describeSnapshot,
  versionHtml,
} from '../../../renderer/src/chat/message-actions/HistoryDialog.js';
import {
  joinNames,
  reactionChips,
  reactionTooltip,
} from '../../../renderer/src/chat/message-actions/reaction-chips.js';
import { absoluteLink, replyTarget } from '../../../renderer/src/chat/message-actions/reply.js';

const reaction = (
  user_id: number,
  emoji_name: string,
  emoji_code: string,
  reaction_type: Reaction['reaction_type'] = 'unicode_emoji',
): Reaction => ({
  user_id,
  emoji_name,
  emoji_code,
  reaction_type,
});

describe('reaction chips', () => {
  const chips = reactionChips(
    [
      reaction(2, 'thumbs_up', '1f44d'),
      reaction(1, 'tada', '1f389'),
      reaction(1, '+1', '1f44d'),
      reaction(3, 'parrot', '7', 'realm_emoji'),
    ],
    1,
  );

  it('groups one emoji under any of its names, in first-use order, marking one’s own', () => {
    expect(chips.map((c) => [c.emojiName, c.userIds, c.mine])).toEqual([
      ['thumbs_up', [2, 1], true],
      ['tada', [1], true],
      ['parrot', [3], false],
    ]);
  });

  it('names who reacted, you first', () => {
    const names: Record<number, string> = { 2: 'Bea', 3: 'Cy' };
    const nameOf = (id: number) => names[id] ?? '?';
    expect(reactionTooltip(chips[0]!, 1, nameOf)).toBe('You and Bea reacted with :thumbs_up:');
    expect(reactionTooltip(chips[2]!, 1, nameOf)).toBe('Cy reacted with :parrot:');
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B and C');
  });
});

describe('edit requests', () => {
  const original = { content: 'old', topic: 'lunch', channelId: 4 };
  const form = {
    content: 'old',
    topic: 'lunch',
    channelId: 4,
    propagateMode: 'change_all' as const,
    notifyOldThread: false,
    notifyNewThread: true,
  };

  it('sends only what changed, with the move options only for a move', () => {
    expect(editParams(form, original)).toBeNull();
    expect(editParams({ ...form, content: 'new' }, original)).toEqual({ content: 'new' });
    expect(editParams({ ...form, topic: ' dinner ' }, original)).toEqual({
      topic: 'dinner',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: true,
    });
    expect(editParams({ ...form, channelId: 9, topic: null }, original)).toMatchObject({
      stream_id: 9,
      propagate_mode: 'change_all',
    });
  });
});

describe('replies and links', () => {
  const dm = {
    type: 'private',
    display_recipient: [
      { id: 1, email: 'a', full_name: 'A' },
      { id: 5, email: 'b', full_name: 'B' },
    ],
  } as unknown as Message;

  it('replies in the channel topic, or to the DM’s other people (oneself for a note to self)', () => {
    expect(replyTarget({ type: 'stream', stream_id: 3, subject: 'x' } as Message, 1)).toEqual({
      kind: 'channel',
      channelId: 3,
      topic: 'x',
    });
    expect(replyTarget(dm, 1)).toEqual({ kind: 'direct', userIds: [5] });
    const self = { ...dm, display_recipient: [{ id: 1, email: 'a', full_name: 'A' }] } as Message;
    expect(replyTarget(self, 1)).toEqual({ kind: 'direct', userIds: [1] });
  });

  it('makes a narrow fragment absolute', () => {
    expect(absoluteLink('#narrow/near/5', 'http://h:1/')).toBe('http://h:1/#narrow/near/5');
    expect(absoluteLink('narrow/near/5', 'http://h:1/')).toBe('http://h:1/#narrow/near/5');
  });
});

describe('edit history', () => {
  it('says what each version did', () => {
    const base = { topic: 't', content: 'c', rendered_content: '', user_id: 1, timestamp: 1 };
    expect(describeSnapshot(base, 0)).toBe('Original');
    expect(describeSnapshot({ ...base, prev_content: 'b' }, 1)).toBe('Edited');
    expect(describeSnapshot({ ...base, prev_topic: 's' }, 1)).toBe('Topic changed');
    expect(describeSnapshot({ ...base, prev_stream: 2, prev_content: 'b' }, 1)).toBe(
      'Edited, Moved',
    );
  });

  it('shows an edit as the server’s diff, the original as it was, a move without text', () => {
    const base = {
      topic: 't',
      content: 'c',
      rendered_content: '<p>new</p>',
      user_id: 1,
      timestamp: 1,
    };
    const diff =
      '<div><p><span class="highlight_text_inserted">new</span> <span class="highlight_text_deleted">old</span></p></div>';
    expect(versionHtml(base, 0)).toBe('<p>new</p>');
    expect(versionHtml({ ...base, prev_content: 'old', content_html_diff: diff }, 1)).toBe(diff);
    // A server without diffs: the version itself.
    expect(versionHtml({ ...base, prev_content: 'old' }, 1)).toBe('<p>new</p>');
    expect(versionHtml({ ...base, prev_topic: 's' }, 1)).toBeNull();
  });
});

describe('the emoji picker’s order', () => {
  const choices = emojiChoices(
    { '1f600': ['grinning'], '1f44d': ['+1'], '1f419': ['octopus'] },
    [],
    null,
  );
  it('puts frequent, then popular emoji first when nothing is searched', () => {
    expect(pickerOrder('', choices, ['1f419'], 10).map((c) => c.name)).toEqual([
      'octopus',
      '+1',
      'grinning',
    ]);
    expect(pickerOrder('gr', choices, [], 10).map((c) => c.name)).toEqual(['grinning']);
  });
});
