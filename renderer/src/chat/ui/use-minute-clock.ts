import { useEffect, useState } from 'react';

/** The current time, refreshed every minute: for "Active 5 minutes ago" and local times. */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}
