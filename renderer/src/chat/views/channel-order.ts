import type { ChannelFolder, Subscription } from '../data/model.js';

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

export interface ChannelSection {
  /** null: pinned channels, or the channels in no folder. */
  folder: ChannelFolder | null;
  title: string | null;
  channels: Subscription[];
}

/**
 * The sidebar's sections when it groups channels by folder (Zulip's
 * web_left_sidebar_show_channel_folders): pinned channels first, then each
 * folder in its order, then "Other channels"; empty sections are left out,
 * and with no folder in use there is one untitled section.
 */
export function groupChannels(
  subscriptions: Iterable<Subscription>,
  folders: readonly ChannelFolder[],
  byFolder: boolean,
): ChannelSection[] {
  const sorted = sortChannels(subscriptions);
  const known = new Map(folders.map((f) => [f.id, f]));
  const folderOf = (s: Subscription) =>
    typeof s.folder_id === 'number' ? known.get(s.folder_id) : undefined;
  if (!byFolder || !sorted.some(folderOf)) return [{ folder: null, title: null, channels: sorted }];
  const pinned = sorted.filter((s) => s.pin_to_top);
  const rest = sorted.filter((s) => !s.pin_to_top);
  const sections: ChannelSection[] = [{ folder: null, title: 'Pinned', channels: pinned }];
  for (const folder of folders) {
    sections.push({
      folder,
      title: folder.name,
      channels: rest.filter((s) => folderOf(s) === folder),
    });
  }
  sections.push({
    folder: null,
    title: 'Other channels',
    channels: rest.filter((s) => !folderOf(s)),
  });
  return sections.filter((s) => s.channels.length > 0);
}
