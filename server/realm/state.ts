import type { StateProvider } from '../events/state-provider.js';
import { REPORT_REASONS } from '../messages/index.js';
import {
  PRESENCE_OFFLINE_THRESHOLD_SECONDS,
  PRESENCE_PING_INTERVAL_SECONDS,
} from '../presence/index.js';
import {
  MAX_AVATAR_FILE_SIZE_MIB,
  MAX_CHANNEL_DESCRIPTION_LENGTH,
  MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH,
  MAX_CHANNEL_FOLDER_NAME_LENGTH,
  MAX_CHANNEL_NAME_LENGTH,
  MAX_FILE_UPLOAD_SIZE_MIB,
  MAX_MESSAGE_LENGTH,
  MAX_REMINDER_NOTE_LENGTH,
  MAX_TOPIC_LENGTH,
} from '../shared/limits.js';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_GUESSES,
  PASSWORD_MIN_LENGTH,
} from '../shared/password-rule.js';
import { apiGroupSettingValue, loadRealm } from '../shared/realm.js';
import { groupSettingNames } from '../shared/realm-settings.js';
import { serverThumbnailFormats } from '../shared/uploads.js';
import { availableNotificationSounds, emojisetChoices } from '../shared/user-settings.js';
import { authenticationMethods } from './server-settings.js';

export const EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS = 90;

export const realmState: StateProvider = {
  fetchTypes: ['realm'],
  fetch(ctx) {
    const realm = loadRealm(ctx);
    const state: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(realm.settings)) {
      state[`realm_${key}`] = (groupSettingNames as string[]).includes(key)
        ? apiGroupSettingValue(ctx, value)
        : value;
    }
    const url = ctx.config.externalUrl;
    Object.assign(state, {
      realm_name: realm.row.name,
      realm_description: realm.row.description,
      realm_date_created: realm.row.date_created,
      realm_uri: url,
      realm_url: url,
      realm_icon_url: `${url}/static/images/logo/hearth-icon.png`,
      realm_icon_source: 'G',
      realm_logo_url: `${url}/static/images/logo/hearth-logo.png`,
      realm_logo_source: 'D',
      realm_night_logo_url: `${url}/static/images/logo/hearth-logo.png`,
      realm_night_logo_source: 'D',
      realm_bot_domain: realm.row.email_domain,
      realm_authentication_methods: Object.fromEntries(
        Object.entries(authenticationMethods(ctx)).map(([k, v]) => [
          k,
          { enabled: v, available: v },
        ]),
      ),
      realm_available_video_chat_providers: { jitsi_meet: { name: 'Jitsi Meet', id: 1 } },
      realm_is_zephyr_mirror_realm: false,
      realm_email_auth_enabled: true,
      realm_password_auth_enabled: true,
      realm_push_notifications_enabled: false,
      realm_push_notifications_enabled_end_timestamp: null,
      realm_upload_quota_mib: null,
      realm_plan_type: 1,
      realm_default_external_accounts: {},
      realm_create_public_stream_policy: 1,
      realm_create_private_stream_policy: 1,
      realm_create_web_public_stream_policy: 7,
      realm_wildcard_mention_policy: 5,
      max_message_length: MAX_MESSAGE_LENGTH,
      max_topic_length: MAX_TOPIC_LENGTH,
      max_stream_name_length: MAX_CHANNEL_NAME_LENGTH,
      max_stream_description_length: MAX_CHANNEL_DESCRIPTION_LENGTH,
      max_channel_folder_name_length: MAX_CHANNEL_FOLDER_NAME_LENGTH,
      max_channel_folder_description_length: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH,
      max_reminder_note_length: MAX_REMINDER_NOTE_LENGTH,
      max_bulk_new_subscription_messages: 100,
      max_file_upload_size_mib: MAX_FILE_UPLOAD_SIZE_MIB,
      max_avatar_file_size_mib: MAX_AVATAR_FILE_SIZE_MIB,
      max_icon_file_size_mib: 5,
      max_logo_file_size_mib: 5,
      server_min_deactivated_realm_deletion_days: null,
      server_max_deactivated_realm_deletion_days: null,
      server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECONDS,
      server_presence_offline_threshold_seconds: PRESENCE_OFFLINE_THRESHOLD_SECONDS,
      server_typing_started_expiry_period_milliseconds: 15000,
      server_typing_stopped_wait_period_milliseconds: 5000,
      server_typing_started_wait_period_milliseconds: 10000,
      server_inline_image_preview: true,
      server_inline_url_embed_preview: false,
      server_thumbnail_formats: serverThumbnailFormats(),
      server_avatar_changes_disabled: false,
      server_name_changes_disabled: false,
      server_needs_upgrade: false,
      server_web_public_streams_enabled: false,
      server_emoji_data_url: `${url}/static/generated/emoji/emoji_api.json`,
      server_jitsi_server_url: null,
      server_can_summarize_topics: false,
      // The reasons POST /messages/{id}/report accepts, as the mobile app offers them.
      server_report_message_types: Object.entries(REPORT_REASONS).map(([key, name]) => ({
        key,
        name,
      })),
      server_supported_permission_settings: { realm: {}, stream: {}, group: {} },
      event_queue_longpoll_timeout_seconds: EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS,
      settings_send_digest_emails: false,
      zulip_plan_is_not_limited: true,
      upgrade_text_for_wide_organization_logo: '',
      jitsi_server_url: 'https://meet.jit.si',
      development_environment: ctx.config.demo,
      server_generation: ctx.config.startedAtMs,
      password_min_length: PASSWORD_MIN_LENGTH,
      password_max_length: PASSWORD_MAX_LENGTH,
      password_min_guesses: PASSWORD_MIN_GUESSES,
      giphy_rating_options: {},
      demo_organization_scheduled_deletion_date: undefined,
      realm_billing: undefined,
      available_notification_sounds: availableNotificationSounds,
      emojiset_choices: emojisetChoices,
    });
    for (const key of Object.keys(state)) if (state[key] === undefined) delete state[key];
    return state;
  },
};
