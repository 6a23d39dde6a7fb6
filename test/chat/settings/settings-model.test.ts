/**
 * Personal settings' pure rules: light or dark, the root font size, the
 * profile form's values and what saving it sends, new alert words; and the
 * store keeping alert words and one's avatar source from register and events.
 */
import { describe, expect, it } from 'vitest';
import { applyEvent, noEffects, type ZulipEvent } from '../../../renderer/src/chat/data/events.js';
import type { RegisterAnswer } from '../../../renderer/src/chat/data/state.js';
import { initialChatState, stateFromRegister } from '../../../renderer/src/chat/data/state.js';
import { emptyBook } from '../../../renderer/src/chat/data/unread.js';
import type { ProfileField } from '../../../renderer/src/chat/people/profile-fields.js';
import {
  ColorScheme,
  effectiveScheme,
  newAlertWords,
  profileDataChanges,
  profileFormValues,
  profileInputOf,
  rootFontSizePx,
  selectOptions,
} from '../../../renderer/src/chat/settings/settings-model.js';

/** A register answer as the wire brings it: JSON, here sometimes deliberately off-shape. */
const fromWire = (answer: object) => answer as RegisterAnswer;

const field = (id: number, type: number, extra: Partial<ProfileField> = {}): ProfileField => ({
  id,
  name: `Field ${id}`,
  type,
  field_data: '',
  order: id,
  ...extra,
});

describe('display settings', () => {
  it('picks light or dark from color_scheme, automatic following the system', () => {
    expect(effectiveScheme(ColorScheme.automatic, true)).toBe('dark');
    expect(effectiveScheme(ColorScheme.automatic, false)).toBe('light');
    expect(effectiveScheme(ColorScheme.dark, false)).toBe('dark');
    expect(effectiveScheme(ColorScheme.light, true)).toBe('light');
    expect(effectiveScheme(undefined, true)).toBe('dark');
  });

  it("keeps the chat's 15 px at Zulip's default 16 and scales the rest, within Zulip's range", () => {
    expect(rootFontSizePx(16)).toBe(15);
    expect(rootFontSizePx(20)).toBe(18.75);
    expect(rootFontSizePx(12)).toBe(11.25);
    expect(rootFontSizePx(40)).toBe(18.75);
    expect(rootFontSizePx('big')).toBe(15);
  });
});

describe('the profile form', () => {
  const pronouns = field(1, 8);
  const team = field(2, 3, {
    field_data: JSON.stringify({
      b: { text: 'Backend', order: '2' },
      f: { text: 'Frontend', order: '1' },
    }),
  });
  const mentor = field(3, 6);
  const bio = field(4, 2);

  it('asks for each type with its own control, select options in their order', () => {
    expect([pronouns, team, mentor, bio, field(5, 4), field(6, 5)].map(profileInputOf)).toEqual([
      'text',
      'select',
      'users',
      'textarea',
      'date',
      'url',
    ]);
    expect(selectOptions(team)).toEqual([
      { value: 'f', text: 'Frontend' },
      { value: 'b', text: 'Backend' },
    ]);
    expect(selectOptions(field(7, 3, { field_data: 'not json' }))).toEqual([]);
  });

  it('starts from profile_data, empty where nothing was filled in', () => {
    expect(
      profileFormValues([pronouns, team, mentor], {
        '1': { value: 'she/her' },
        '3': { value: '[7]' },
      }),
    ).toEqual({ 1: 'she/her', 2: '', 3: '[7]' });
  });

  it('sends only what changed: new values to PATCH, emptied fields to DELETE', () => {
    const fields = [pronouns, team, mentor, bio];
    const before = { 1: 'she/her', 2: 'f', 3: '', 4: 'Hi' };
    const after = { 1: ' they/them ', 2: 'f', 3: '[7]', 4: '  ' };
    expect(profileDataChanges(fields, before, after)).toEqual({
      update: [
        { id: 1, value: 'they/them' },
        { id: 3, value: [7] },
      ],
      remove: [4],
    });
    expect(profileDataChanges(fields, before, before)).toEqual({ update: [], remove: [] });
  });
});

describe('alert words', () => {
  it('adds each new word once, trimmed, none the person has in any case', () => {
    expect(newAlertWords(' deploy , Outage,deploy,, ', ['outage'])).toEqual(['deploy']);
    expect(newAlertWords('   ', [])).toEqual([]);
  });

  it('are kept from register and replaced by alert_words events', () => {
    const state = stateFromRegister(fromWire({ user_id: 1, alert_words: ['lunch', 7] }), 0);
    expect(state.alertWords).toEqual(['lunch']);
    const ctx = { book: emptyBook(), effects: noEffects(), nowSecs: 0 };
    const event = { id: 1, type: 'alert_words', alert_words: ['lunch', 'deploy'] } as ZulipEvent;
    expect(applyEvent(state, event, ctx).alertWords).toEqual(['lunch', 'deploy']);
    expect(initialChatState(1).alertWords).toEqual([]);
  });

  it("keep one's own avatar source from register, for the Delete picture button", () => {
    const state = stateFromRegister(
      fromWire({
        user_id: 1,
        avatar_source: 'U',
        realm_users: [
          { user_id: 1, full_name: 'Me', role: 400 },
          { user_id: 2, role: 400 },
        ],
      }),
      0,
    );
    expect(state.users.get(1)?.avatar_source).toBe('U');
    expect(state.users.get(2)?.avatar_source).toBeUndefined();
  });
});
