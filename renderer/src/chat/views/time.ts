/** Times as the feed shows them, in the reader's locale and time zone. */

/**
 * One formatter per set of options, made on first use: `toLocale…String`
 * with options builds a new Intl.DateTimeFormat on every call, which made
 * formatting the time the largest part of rendering a feed row.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(undefined, options);
    formatters.set(key, made);
  }
  return made;
}

export function formatTime(timestamp: number, twentyFourHour: boolean): string {
  return formatter(`time-${twentyFourHour}`, {
    hour: 'numeric',
    minute: '2-digit',
    hour12: !twentyFourHour,
  }).format(timestamp * 1000);
}

/** The tooltip on a message's time: the whole date and time. */
export function formatFullDate(timestamp: number, twentyFourHour: boolean): string {
  return formatter(`full-${twentyFourHour}`, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hour12: !twentyFourHour,
  }).format(timestamp * 1000);
}

/** A recipient header's date: "Today", "Yesterday", or the date. */
export function formatDay(timestamp: number, now = new Date()): string {
  const date = new Date(timestamp * 1000);
  const startOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOf(now) - startOf(date)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  const thisYear = date.getFullYear() === now.getFullYear();
  return formatter(`day-${thisYear}`, {
    month: 'short',
    day: 'numeric',
    ...(thisYear ? {} : { year: 'numeric' }),
  }).format(date);
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
