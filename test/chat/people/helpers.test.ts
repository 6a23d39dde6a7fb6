/** Emoji glyphs, status choices (checked against the server's emoji table), profile fields, initials. */
import { describe, expect, it } from 'vitest';
import { profileFieldRows } from '../../../renderer/src/chat/people/profile-fields.js';
import { STATUS_EMOJI, STATUS_PRESETS } from '../../../renderer/src/chat/people/status-choices.js';
import { initials } from '../../../renderer/src/chat/ui/Avatar.js';
import {
  emojiGlyph,
  isUnicodeCode,
  ZULIP_EMOJI_URL,
} from '../../../renderer/src/chat/ui/emoji-glyph.js';
import { emojiCodeOf } from '../../../renderer/src/chat/ui/emoji-sprites.js';
import { unicodeEmojiCode } from '../../../server/markdown/index.js';
import { user } from './fixtures.js';

describe('emoji', () => {
  it('tells Unicode codes from anything else', () => {
    expect(isUnicodeCode('1f389')).toBe(true);
    expect(isUnicodeCode('1f1fa-1f1f8')).toBe(true);
    expect(isUnicodeCode('zulip')).toBe(false);
    expect(isUnicodeCode('1F389')).toBe(false);
  });
  it("names typed emoji by Zulip's codes: hex code points without FE0F", () => {
    expect(emojiCodeOf('👍🏽')).toBe('1f44d-1f3fd');
    expect(emojiCodeOf('❤️')).toBe('2764');
    expect(emojiCodeOf('👨‍💻')).toBe('1f468-200d-1f4bb');
    expect(emojiCodeOf('#️⃣')).toBe('0023-20e3');
  });
  it('draws each reaction type', () => {
    const realm = {
      '7': {
        id: '7',
        name: 'party',
        source_url: '/user_avatars/1/emoji/7.png',
        deactivated: false,
      },
    };
    expect(emojiGlyph({ emoji_name: 'tada', emoji_code: '1f389' }, realm)).toEqual({
      kind: 'sprite',
      code: '1f389',
      name: 'tada',
    });
    expect(
      emojiGlyph({ emoji_name: 'party', emoji_code: '7', reaction_type: 'realm_emoji' }, realm),
    ).toEqual({ kind: 'image', url: '/user_avatars/1/emoji/7.png', name: 'party' });
    expect(
      emojiGlyph(
        { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' },
        {},
      ),
    ).toEqual({ kind: 'image', url: ZULIP_EMOJI_URL, name: 'zulip' });
    expect(
      emojiGlyph({ emoji_name: 'gone', emoji_code: '8', reaction_type: 'realm_emoji' }, realm),
    ).toBeNull();
    expect(emojiGlyph({ emoji_name: '', emoji_code: '' }, realm)).toBeNull();
  });
});

describe('status choices', () => {
  it("name every emoji as the server's table does (else the server refuses the status)", () => {
    for (const choice of [...STATUS_PRESETS, ...STATUS_EMOJI]) {
      expect(unicodeEmojiCode(choice.emoji_name), choice.emoji_name).toBe(choice.emoji_code);
    }
  });
});

describe('profileFieldRows', () => {
  const fields = [
    { id: 3, name: 'Team', type: 3, order: 2, field_data: '{"0":{"text":"Ops","order":"0"}}' },
    { id: 1, name: 'Phone', type: 1, order: 0, field_data: '' },
    { id: 4, name: 'Birthday', type: 4, order: 3, field_data: '' },
    { id: 5, name: 'Site', type: 5, order: 4, field_data: '' },
    { id: 6, name: 'Mentor', type: 6, order: 5, field_data: '' },
    { id: 7, name: 'GitHub', type: 7, order: 6, field_data: '{"subtype":"github"}' },
    { id: 8, name: 'Empty', type: 1, order: 7, field_data: '' },
    { id: 9, name: 'Bad link', type: 5, order: 8, field_data: '' },
  ];
  const users = new Map([[2, user(2, 'Mia Mentor')]]);
  it('shows filled fields in order, as text and safe links', () => {
    const rows = profileFieldRows(
      fields,
      {
        '1': { value: '+1 555' },
        '3': { value: '0' },
        '4': { value: '1990-04-02' },
        '5': { value: 'https://example.com/me' },
        '6': { value: '[2, 99]' },
        '7': { value: 'octo cat' },
        '8': { value: '  ' },
        '9': { value: 'javascript:alert(1)' },
      },
      users,
    );
    expect(rows).toEqual([
      { id: 1, name: 'Phone', text: '+1 555' },
      { id: 3, name: 'Team', text: 'Ops' },
      { id: 4, name: 'Birthday', text: 'Apr 2, 1990' },
      { id: 5, name: 'Site', text: 'https://example.com/me', url: 'https://example.com/me' },
      { id: 6, name: 'Mentor', text: 'Mia Mentor' },
      { id: 7, name: 'GitHub', text: 'octo cat', url: 'https://github.com/octo%20cat' },
      { id: 9, name: 'Bad link', text: 'javascript:alert(1)', url: undefined },
    ]);
    expect(profileFieldRows(fields, undefined, users)).toEqual([]);
  });
});

describe('initials', () => {
  it('takes the first and last words', () => {
    expect(initials('Amy Beth Carter')).toBe('AC');
    expect(initials('zoë')).toBe('Z');
    expect(initials('  ')).toBe('');
  });
});
