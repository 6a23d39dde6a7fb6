import type { StateProvider } from '../events/state-provider.js';
import { loadRealm } from '../shared/realm.js';
import {
  availableNotificationSounds,
  emojisetChoices,
  mergeUserSettings,
} from '../shared/user-settings.js';

/** Settings whose changes clients without `user_settings_object` hear as update_display_settings. */
export const displaySettingNames = [
  'color_scheme',
  'default_language',
  'demote_inactive_streams',
  'emojiset',
  'enable_drafts_synchronization',
  'fluid_layout_width',
  'web_home_view',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'translate_emoticons',
  'twenty_four_hour_time',
  'receives_typing_notifications',
  'enter_sends',
] as const;

/** Settings whose changes those clients hear as update_global_notifications. */
export const notificationSettingNames = [
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'email_notifications_batching_period_seconds',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enable_stream_audible_notifications',
  'wildcard_mentions_notify',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'desktop_icon_count_display',
  'presence_enabled',
] as const;

export const userSettingsState: StateProvider = {
  fetchTypes: ['user_settings'],
  fetch(_ctx, user) {
    return {
      user_settings: {
        ...mergeUserSettings(user.settings),
        timezone: user.timezone,
        available_notification_sounds: availableNotificationSounds,
        emojiset_choices: emojisetChoices,
      },
    };
  },
};

/** The flat, pre-`user_settings` keys, still read by clients without that capability. */
export const legacyDisplaySettingsState: StateProvider = {
  fetchTypes: ['update_display_settings'],
  fetch(_ctx, user, options) {
    if (options.capabilities.user_settings_object) return {};
    const settings = mergeUserSettings(user.settings);
    const state: Record<string, unknown> = {
      timezone: user.timezone,
      emojiset_choices: emojisetChoices,
    };
    for (const name of displaySettingNames) state[name] = settings[name];
    return state;
  },
};

export const legacyNotificationSettingsState: StateProvider = {
  fetchTypes: ['update_global_notifications'],
  fetch(_ctx, user, options) {
    if (options.capabilities.user_settings_object) return {};
    const settings = mergeUserSettings(user.settings);
    const state: Record<string, unknown> = {
      available_notification_sounds: availableNotificationSounds,
      realm_name_in_email_notifications_policy: settings.realm_name_in_email_notifications_policy,
    };
    for (const name of notificationSettingNames) state[name] = settings[name];
    return state;
  },
};

/** POST /register's realm_user_settings_defaults: what new accounts start from. */
export const realmUserSettingsDefaultsState: StateProvider = {
  fetchTypes: ['realm_user_settings_defaults'],
  fetch: (ctx) => ({
    realm_user_settings_defaults: {
      ...mergeUserSettings(loadRealm(ctx).row.user_settings_defaults),
      available_notification_sounds: availableNotificationSounds,
      emojiset_choices: emojisetChoices,
    },
  }),
};
