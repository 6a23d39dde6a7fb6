import type { ExportProfile } from './profile.js';
import { zulip12 } from './zulip-12.js';

export type { ExportProfile, TableContract } from './profile.js';

/** Every profile Hearth can write, by name; the first is the default. */
export const profiles: Readonly<Record<string, ExportProfile>> = { 'zulip-12': zulip12 };
export const DEFAULT_PROFILE = 'zulip-12';

export function profileNamed(name: string): ExportProfile {
  const profile = profiles[name];
  if (!profile)
    throw new Error(
      `unknown export profile "${name}" (known: ${Object.keys(profiles).join(', ')})`,
    );
  return profile;
}

/** Inverse of an enum map (Zulip number -> Hearth name). */
export function nameOf(map: Readonly<Record<string, number>>, value: unknown): string | undefined {
  return Object.entries(map).find(([, v]) => v === value)?.[0];
}
