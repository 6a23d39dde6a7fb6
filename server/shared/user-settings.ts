/**
 * Personal settings with Zulip's defaults; users store only overrides (JSON).
 * `timezone` lives in its own column because other users see it.
 */
export const userSettingDefaults = {
  twenty_four_hour_time: false,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  starred_message_counts: true,
  receives_typing_notifications: true,
  web_suggest_update_timezone: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  web_font_size_px: 16,
  web_line_height_percent: 140,
  color_scheme: 1,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  web_home_view: 'inbox',
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  emojiset: 'google',
  demote_inactive_streams: 1,
  user_list_style: 2,
  web_animate_image_previews: 'on_hover',
  web_stream_unreads_count_display_policy: 2,
  hide_ai_features: false,
  web_left_sidebar_show_channel_folders: true,
  web_left_sidebar_unreads_count_summary: true,
  enter_sends: false,
  enable_drafts_synchronization: true,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  resolved_topic_notice_auto_read_policy: 'except_followed',
  presence_enabled: true,
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  allow_private_data_export: false,
  /** 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators */
  email_address_visibility: 1,
  web_navigate_to_sent_message: true,
};

export type UserSettings = typeof userSettingDefaults;

export const availableNotificationSounds = ['chime-saved', 'ding', 'zulip'];

export const emojisetChoices = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

/** Most users share a few override strings ('{}' above all), so merges are memoized. */
const mergedByOverrides = new Map<string, UserSettings>();
const MEMO_LIMIT = 512;

/** Settings for stored overrides; frozen, since the object is shared (copy to change). */
export function mergeUserSettings(overridesJson: string): UserSettings {
  let merged = mergedByOverrides.get(overridesJson);
  if (!merged) {
    merged = mergeFresh(overridesJson);
    if (mergedByOverrides.size >= MEMO_LIMIT) mergedByOverrides.clear();
    mergedByOverrides.set(overridesJson, merged);
  }
  return merged;
}

function mergeFresh(overridesJson: string): UserSettings {
  let overrides: Record<string, unknown> = {};
  try {
    overrides = JSON.parse(overridesJson) as Record<string, unknown>;
  } catch {
    // Fall back to defaults rather than failing every request for this user.
  }
  const merged: Record<string, unknown> = { ...userSettingDefaults };
  for (const [key, value] of Object.entries(overrides)) {
    if (key in userSettingDefaults) merged[key] = value;
  }
  return Object.freeze(merged) as UserSettings;
}
