/**
 * The most recent moment, at or before `now`, when the daily automatic
 * backup was due: `hour`:00 local time today, or yesterday if that is still
 * ahead. Local time because "3 at night" means the machine's night.
 */
export function latestSlot(now: number, hour: number): number {
  const slot = new Date(now);
  slot.setHours(hour, 0, 0, 0);
  if (slot.getTime() > now) slot.setDate(slot.getDate() - 1);
  return slot.getTime();
}
