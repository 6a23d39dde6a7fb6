import type { Subscription } from '../data/model.js';

/** Zulip's sidebar order: pinned channels first, then the rest, each alphabetical; archived ones left out. */
export function sortChannels(subscriptions: Iterable<Subscription>): Subscription[] {
  const byName = (a: Subscription, b: Subscription) =>
    a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  const all = [...subscriptions].filter((s) => !s.is_archived);
  return [
    ...all.filter((s) => s.pin_to_top).sort(byName),
    ...all.filter((s) => !s.pin_to_top).sort(byName),
  ];
}
