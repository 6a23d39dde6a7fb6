import type { Subscription } from '../data/model.js';

/** Made once: `localeCompare` with options builds a new collator on every comparison. */
const names = new Intl.Collator(undefined, { sensitivity: 'base' });
const byName = (a: Subscription, b: Subscription) => names.compare(a.name, b.name);

/** Zulip's sidebar order: pinned channels first, then the rest, each alphabetical; archived ones left out. */
export function sortChannels(subscriptions: Iterable<Subscription>): Subscription[] {
  const all = [...subscriptions].filter((s) => !s.is_archived);
  return [
    ...all.filter((s) => s.pin_to_top).sort(byName),
    ...all.filter((s) => !s.pin_to_top).sort(byName),
  ];
}
