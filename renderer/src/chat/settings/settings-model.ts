/**
 * Personal settings as the settings overlay shows them: its sections, the
 * choices each setting offers (Zulip's values), what a change sends, and the
 * custom profile fields a person may fill in. Pure, unit-tested in node.
 */
import type { ProfileData, ProfileField } from '../people/profile-fields.js';

/** The overlay's sections, in Zulip's order; the id is also the end of `#settings/{id}`. */
export const SETTINGS_SECTIONS = [
  { id: 'profile', title: 'Profile' },
  { id: 'account', title: 'Account & privacy' },
  { id: 'preferences', title: 'Preferences' },
  { id: 'notifications', title: 'Notifications' },
  { id: 'muted-users', title: 'Muted users' },
  { id: 'alert-words', title: 'Alert words' },
] as const;

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

/** Zulip's `color_scheme` values (UserProfile.COLOR_SCHEME_*). */
export const ColorScheme = { automatic: 1, dark: 2, light: 3 } as const;

export const COLOR_SCHEME_CHOICES = [
  { value: ColorScheme.automatic, text: 'Automatic (follows system settings)' },
  { value: ColorScheme.dark, text: 'Dark' },
  { value: ColorScheme.light, text: 'Light' },
];

/**
 * The emoji sets the chat can draw: Google's sprite sheet is the only one the
 * server ships (`/static/generated/emoji/google-sprite.css`), and plain text
 * needs none. Zulip's `twitter` is accepted by the server but drawn as Google's.
 */
export const EMOJISET_CHOICES = [
  { value: 'google', text: 'Google' },
  { value: 'text', text: 'Plain text' },
];

export const HOME_VIEW_CHOICES = [
  { value: 'inbox', text: 'Inbox' },
  { value: 'recent_topics', text: 'Recent conversations' },
  { value: 'all_messages', text: 'Combined feed' },
];

/** Zulip's font size range for the web app (`web_font_size_px`); 16 is its default. */
export const FONT_SIZE_MIN = 12;
export const FONT_SIZE_MAX = 20;
export const FONT_SIZE_DEFAULT = 16;

/** The chat's own text size at Zulip's default font size. */
const CHAT_BASE_PX = 15;

/** The root font size for a `web_font_size_px`: the chat's 15 px at Zulip's 16, scaled alike. */
export function rootFontSizePx(setting: unknown): number {
  const px =
    typeof setting === 'number' && Number.isFinite(setting)
      ? Math.min(FONT_SIZE_MAX, Math.max(FONT_SIZE_MIN, setting))
      : FONT_SIZE_DEFAULT;
  return Math.round(((CHAT_BASE_PX * px) / FONT_SIZE_DEFAULT) * 100) / 100;
}

/** Light or dark for a `color_scheme`, given whether the system prefers dark. */
export function effectiveScheme(setting: unknown, systemDark: boolean): 'light' | 'dark' {
  if (setting === ColorScheme.dark) return 'dark';
  if (setting === ColorScheme.light) return 'light';
  return systemDark ? 'dark' : 'light';
}

/** The checkbox settings of the Notifications section, grouped as Zulip's page groups them. */
export const NOTIFICATION_TOGGLES: {
  legend: string;
  settings: { name: string; label: string }[];
}[] = [
  {
    legend: 'Desktop notifications',
    settings: [
      {
        name: 'enable_desktop_notifications',
        label: 'Direct messages and mentions',
      },
      {
        name: 'enable_stream_desktop_notifications',
        label: 'All messages in channels',
      },
      {
        name: 'enable_followed_topic_desktop_notifications',
        label: 'Messages in followed topics',
      },
      {
        name: 'pm_content_in_desktop_notifications',
        label: 'Include the content of direct messages',
      },
    ],
  },
  {
    legend: 'Sounds',
    settings: [
      { name: 'enable_sounds', label: 'Direct messages and mentions' },
      { name: 'enable_stream_audible_notifications', label: 'All messages in channels' },
      {
        name: 'enable_followed_topic_audible_notifications',
        label: 'Messages in followed topics',
      },
    ],
  },
  {
    legend: 'Mentions',
    settings: [
      {
        name: 'wildcard_mentions_notify',
        label: 'Notify me of @all, @everyone and @channel mentions',
      },
      {
        name: 'enable_followed_topic_wildcard_mentions_notify',
        label: 'Notify me of @topic and wildcard mentions in followed topics',
      },
    ],
  },
];

/** Zulip's custom profile field types a person can type into (the others are admins' or pickers). */
const FieldType = {
  shortText: 1,
  longText: 2,
  select: 3,
  date: 4,
  url: 5,
  user: 6,
  externalAccount: 7,
  pronouns: 8,
} as const;

/** How the profile form asks for a field. */
export type ProfileInput = 'text' | 'textarea' | 'select' | 'date' | 'url' | 'users';

export function profileInputOf(field: ProfileField): ProfileInput {
  switch (field.type) {
    case FieldType.longText:
      return 'textarea';
    case FieldType.select:
      return 'select';
    case FieldType.date:
      return 'date';
    case FieldType.url:
      return 'url';
    case FieldType.user:
      return 'users';
    default:
      return 'text';
  }
}

/** A select field's options, in their order (`field_data` is `{"key": {"text", "order"}}`). */
export function selectOptions(field: ProfileField): { value: string; text: string }[] {
  let data: unknown;
  try {
    data = JSON.parse(field.field_data || '{}');
  } catch {
    return [];
  }
  if (!data || typeof data !== 'object') return [];
  return Object.entries(data as Record<string, { text?: unknown; order?: unknown }>)
    .map(([value, option]) => ({
      value,
      text: String(option?.text ?? value),
      order: Number(option?.order ?? 0),
    }))
    .sort((a, b) => a.order - b.order)
    .map(({ value, text }) => ({ value, text }));
}

/** The form's text for each field from a user's `profile_data`. */
export function profileFormValues(
  fields: ProfileField[],
  data: ProfileData | undefined,
): Record<number, string> {
  const values: Record<number, string> = {};
  for (const field of fields) {
    const value = data?.[String(field.id)]?.value;
    values[field.id] = value === undefined || value === null ? '' : String(value);
  }
  return values;
}

/**
 * What saving the profile form sends: `PATCH /users/me/profile_data` with
 * the fields given a value, `DELETE` with those emptied; unchanged fields
 * are left out (Zulip's own form sends only changes too).
 */
export function profileDataChanges(
  fields: ProfileField[],
  before: Record<number, string>,
  after: Record<number, string>,
): { update: { id: number; value: string | number[] }[]; remove: number[] } {
  const update: { id: number; value: string | number[] }[] = [];
  const remove: number[] = [];
  for (const field of fields) {
    const next = (after[field.id] ?? '').trim();
    if (next === (before[field.id] ?? '').trim()) continue;
    if (next === '') {
      remove.push(field.id);
    } else if (field.type === FieldType.user) {
      update.push({ id: field.id, value: JSON.parse(next) as number[] });
    } else {
      update.push({ id: field.id, value: next });
    }
  }
  return { update, remove };
}

/**
 * The words to add from what was typed (commas separate several): trimmed,
 * none empty, none the person already has (the server compares without case).
 */
export function newAlertWords(input: string, existing: readonly string[]): string[] {
  const have = new Set(existing.map((w) => w.toLowerCase()));
  const words: string[] = [];
  for (const part of input.split(',')) {
    const word = part.trim();
    if (word && !have.has(word.toLowerCase())) {
      have.add(word.toLowerCase());
      words.push(word);
    }
  }
  return words;
}
