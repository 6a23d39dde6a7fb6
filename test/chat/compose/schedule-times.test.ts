import { describe, expect, it } from 'vitest';
import {
  farEnoughAhead,
  fromLocalInput,
  localInputValue,
  scheduleChoices,
} from '../../../renderer/src/chat/compose/schedule-times.js';

const local = (iso: string) => new Date(iso);
const shown = (now: Date) =>
  scheduleChoices(now).map((c) => `${c.day} ${localInputValue(c.timestamp)}`);

describe("Zulip's scheduling choices", () => {
  it('offers today at 9 and 4 in the early morning, and tomorrow at both', () => {
    // 2026-11-25 is a Wednesday.
    expect(shown(local('2026-11-25T07:00'))).toEqual([
      'Today 2026-11-25T09:00',
      'Today 2026-11-25T16:00',
      'Tomorrow 2026-11-26T09:00',
      'Tomorrow 2026-11-26T16:00',
    ]);
  });

  it('drops a time less than five minutes ahead', () => {
    expect(shown(local('2026-11-25T08:56'))[0]).toBe('Today 2026-11-25T16:00');
    expect(shown(local('2026-11-25T15:54'))[0]).toBe('Today 2026-11-25T16:00');
    expect(shown(local('2026-11-25T15:56'))[0]).toBe('Tomorrow 2026-11-26T09:00');
  });

  it('adds Monday at 9 on Fridays and Saturdays only', () => {
    expect(shown(local('2026-11-27T18:00')).at(-1)).toBe('Monday 2026-11-30T09:00');
    expect(shown(local('2026-11-28T18:00')).at(-1)).toBe('Monday 2026-11-30T09:00');
    expect(shown(local('2026-11-29T18:00')).at(-1)).toBe('Tomorrow 2026-11-30T16:00');
  });

  it('reads and writes datetime-local values', () => {
    const at = fromLocalInput('2026-11-25T10:30');
    expect(at).not.toBeNull();
    expect(localInputValue(at!)).toBe('2026-11-25T10:30');
    expect(fromLocalInput('')).toBeNull();
    expect(farEnoughAhead(1000, 1000 * 1000 - 5 * 60 * 1000)).toBe(true);
    expect(farEnoughAhead(1000, 1000 * 1000 - 4 * 60 * 1000)).toBe(false);
  });
});
