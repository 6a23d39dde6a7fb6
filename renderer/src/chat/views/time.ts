/** Times as the feed shows them, in the reader's locale and time zone. */

export function formatTime(timestamp: number, twentyFourHour: boolean): string {
  return new Date(timestamp * 1000).toLocaleTimeString(undefined, {
    hour: 'numeric',
    minute: '2-digit',
    hour12: !twentyFourHour,
  });
}

/** The tooltip on a message's time: the whole date and time. */
export function formatFullDate(timestamp: number, twentyFourHour: boolean): string {
  return new Date(timestamp * 1000).toLocaleString(undefined, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hour12: !twentyFourHour,
  });
}

/** A recipient header's date: "Today", "Yesterday", or the date. */
export function formatDay(timestamp: number, now = new Date()): string {
  const date = new Date(timestamp * 1000);
  const startOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOf(now) - startOf(date)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return date.toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

/** A short "how long ago" for Recent conversations. */
export function formatAgo(timestamp: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round(now / 1000 - timestamp));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return formatDay(timestamp, new Date(now));
}
