/**
 * The times Zulip's web app offers for "Schedule message" and "Remind me
 * about this": today at 9 AM and 4 PM while they are far enough ahead,
 * tomorrow at both, Monday at 9 AM on Fridays and Saturdays, or a custom time.
 */

/** The server refuses times closer than this (Zulip's MINIMUM_SCHEDULED_MESSAGE_DELAY_SECONDS). */
export const MINIMUM_SCHEDULED_MESSAGE_DELAY_SECONDS = 5 * 60;

export interface ScheduleChoice {
  /** "Today", "Tomorrow" or "Monday". */
  day: 'Today' | 'Tomorrow' | 'Monday';
  /** Unix seconds. */
  timestamp: number;
}

const at = (date: Date, daysAhead: number, hour: number) =>
  Math.floor(
    new Date(date.getFullYear(), date.getMonth(), date.getDate() + daysAhead, hour).getTime() /
      1000,
  );

/** The preset times at `now`, earliest first, in the browser's time zone. */
export function scheduleChoices(now: Date): ScheduleChoice[] {
  const choices: ScheduleChoice[] = [];
  const minutes = now.getHours() * 60 + now.getMinutes();
  const margin = MINIMUM_SCHEDULED_MESSAGE_DELAY_SECONDS / 60;
  if (minutes < 9 * 60 - margin) choices.push({ day: 'Today', timestamp: at(now, 0, 9) });
  if (minutes < 16 * 60 - margin) choices.push({ day: 'Today', timestamp: at(now, 0, 16) });
  choices.push({ day: 'Tomorrow', timestamp: at(now, 1, 9) });
  choices.push({ day: 'Tomorrow', timestamp: at(now, 1, 16) });
  // Friday (5) and Saturday (6): Monday is not tomorrow, and the weekend lies between.
  const day = now.getDay();
  if (day >= 5) choices.push({ day: 'Monday', timestamp: at(now, 8 - day, 9) });
  return choices;
}

/** A `datetime-local` input's value for a time (local, to the minute). */
export function localInputValue(timestampSecs: number): string {
  const d = new Date(timestampSecs * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** Unix seconds from a `datetime-local` value; null when it is not one. */
export function fromLocalInput(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/** Whether the server will take the time: far enough ahead. */
export function farEnoughAhead(timestampSecs: number, nowMs = Date.now()): boolean {
  return timestampSecs - nowMs / 1000 >= MINIMUM_SCHEDULED_MESSAGE_DELAY_SECONDS;
}
