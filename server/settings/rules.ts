import { badRequest } from '../core/errors.js';
import {
  availableNotificationSounds,
  emojisetChoices,
  type UserSettings,
} from '../shared/user-settings.js';

/**
 * How PATCH /settings reads each personal setting (Zulip's
 * json_change_settings): a boolean, an integer from a fixed set of codes
 * (contiguous, so a range), a string from a fixed set, or a value the area
 * checks itself (`checked`).
 */
export type SettingSpec =
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'intIn'; min: number; max: number }
  | { kind: 'strIn'; values: readonly string[] }
  | { kind: 'str' };

const bool = { kind: 'bool' } as const;
const intIn = (min: number, max: number) => ({ kind: 'intIn', min, max }) as const;
const strIn = (...values: string[]) => ({ kind: 'strIn', values }) as const;

export const webHomeViews = ['recent_topics', 'inbox', 'all_messages'] as const;

export const settingSpecs = {
  twenty_four_hour_time: bool,
  web_mark_read_on_scroll_policy: intIn(1, 3),
  web_channel_default_view: intIn(1, 4),
  starred_message_counts: bool,
  receives_typing_notifications: bool,
  web_suggest_update_timezone: bool,
  fluid_layout_width: bool,
  high_contrast_mode: bool,
  web_font_size_px: { kind: 'int' },
  web_line_height_percent: { kind: 'int' },
  color_scheme: intIn(1, 3),
  translate_emoticons: bool,
  display_emoji_reaction_users: bool,
  default_language: { kind: 'str' },
  web_home_view: strIn(...webHomeViews),
  web_escape_navigates_to_home_view: bool,
  left_side_userlist: bool,
  emojiset: strIn(...emojisetChoices.map((choice) => choice.key)),
  demote_inactive_streams: intIn(1, 3),
  user_list_style: intIn(1, 3),
  web_animate_image_previews: strIn('always', 'on_hover', 'never'),
  web_stream_unreads_count_display_policy: intIn(1, 3),
  hide_ai_features: bool,
  web_left_sidebar_show_channel_folders: bool,
  web_left_sidebar_unreads_count_summary: bool,
  enter_sends: bool,
  enable_drafts_synchronization: bool,
  enable_stream_desktop_notifications: bool,
  enable_stream_email_notifications: bool,
  enable_stream_push_notifications: bool,
  enable_stream_audible_notifications: bool,
  notification_sound: { kind: 'str' },
  enable_desktop_notifications: bool,
  enable_sounds: bool,
  enable_followed_topic_desktop_notifications: bool,
  enable_followed_topic_email_notifications: bool,
  enable_followed_topic_push_notifications: bool,
  enable_followed_topic_audible_notifications: bool,
  email_notifications_batching_period_seconds: { kind: 'int' },
  enable_offline_email_notifications: bool,
  enable_offline_push_notifications: bool,
  enable_online_push_notifications: bool,
  enable_digest_emails: bool,
  enable_marketing_emails: bool,
  enable_login_emails: bool,
  message_content_in_email_notifications: bool,
  pm_content_in_desktop_notifications: bool,
  wildcard_mentions_notify: bool,
  enable_followed_topic_wildcard_mentions_notify: bool,
  desktop_icon_count_display: intIn(1, 3),
  realm_name_in_email_notifications_policy: intIn(1, 3),
  automatically_follow_topics_policy: intIn(1, 4),
  automatically_unmute_topics_in_muted_streams_policy: intIn(1, 4),
  automatically_follow_topics_where_mentioned: bool,
  resolved_topic_notice_auto_read_policy: strIn('always', 'except_followed', 'never'),
  presence_enabled: bool,
  send_private_typing_notifications: bool,
  send_stream_typing_notifications: bool,
  send_read_receipts: bool,
  allow_private_data_export: bool,
  email_address_visibility: intIn(1, 5),
  web_navigate_to_sent_message: bool,
} satisfies Record<keyof UserSettings, SettingSpec>;

export const settingNames = Object.keys(settingSpecs) as (keyof UserSettings)[];

/** The interface languages Zulip offers, by code, with their names in English (event `language_name`). */
export const languageNames: Record<string, string> = {
  ar: 'Arabic',
  be: 'Belarusian',
  bg: 'Bulgarian',
  bn: 'Bengali',
  ca: 'Catalan',
  cs: 'Czech',
  cy: 'Welsh',
  da: 'Danish',
  de: 'German',
  el: 'Greek',
  en: 'English',
  en_GB: 'British English',
  eo: 'Esperanto',
  es: 'Spanish',
  fa: 'Persian',
  fi: 'Finnish',
  fr: 'French',
  gl: 'Galician',
  gu: 'Gujarati',
  hi: 'Hindi',
  hu: 'Hungarian',
  id: 'Indonesian',
  it: 'Italian',
  ja: 'Japanese',
  ko: 'Korean',
  lt: 'Lithuanian',
  ml: 'Malayalam',
  mn: 'Mongolian',
  nl: 'Dutch',
  no: 'Norwegian',
  pa: 'Punjabi',
  pl: 'Polish',
  pt: 'Portuguese',
  pt_PT: 'Portuguese (Portugal)',
  ro: 'Romanian',
  ru: 'Russian',
  si: 'Sinhala',
  sk: 'Slovak',
  sr: 'Serbian',
  sv: 'Swedish',
  ta: 'Tamil',
  te: 'Telugu',
  tl: 'Tagalog',
  tr: 'Turkish',
  uk: 'Ukrainian',
  uz: 'Uzbek',
  vi: 'Vietnamese',
  'zh-hans': 'Simplified Chinese',
  'zh-hant': 'Traditional Chinese',
};

const WEEK_SECONDS = 7 * 24 * 60 * 60;

/** Zulip's checks that need more than the parameter's type (check_settings_values). */
export function checkSettingValues(changes: Partial<UserSettings>): void {
  const { default_language, notification_sound, email_notifications_batching_period_seconds } =
    changes;
  if (default_language !== undefined && !Object.hasOwn(languageNames, default_language)) {
    throw badRequest('Invalid default_language');
  }
  if (
    notification_sound !== undefined &&
    notification_sound !== 'none' &&
    !availableNotificationSounds.includes(notification_sound)
  ) {
    throw badRequest(`Invalid notification sound '${notification_sound}'`);
  }
  const period = email_notifications_batching_period_seconds;
  if (period !== undefined && (period <= 0 || period > WEEK_SECONDS)) {
    throw badRequest(`Invalid email batching period: ${period} seconds`);
  }
}

let knownZones: Set<string> | undefined;

/** IANA names the runtime knows, plus their aliases (Intl accepts e.g. US/Eastern). */
export function isTimezone(name: string): boolean {
  knownZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (knownZones.has(name) || name === 'UTC') return true;
  if (name === '' || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
