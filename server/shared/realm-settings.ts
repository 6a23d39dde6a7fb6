/**
 * Organization settings with Zulip's defaults. The realm row stores only the
 * overrides (JSON), so adding a setting never needs a migration. Group-valued
 * settings name a system group; they are resolved to group ids when sent.
 */
export const realmSettingDefaults = {
  allow_message_editing: true,
  allow_edit_history: true,
  message_edit_history_visibility_policy: 'all' as 'all' | 'moves' | 'none',
  message_content_edit_limit_seconds: 600 as number | null,
  message_content_delete_limit_seconds: 600 as number | null,
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  mandatory_topics: false,
  topics_policy: 'allow_empty_topic' as 'allow_empty_topic' | 'disable_empty_topic',
  empty_topic_display_name: 'general chat',
  message_retention_days: -1,
  default_language: 'en',
  default_code_block_language: '',
  welcome_message_custom_text: '',
  digest_emails_enabled: false,
  digest_weekday: 1,
  disallow_disposable_email_addresses: true,
  email_changes_disabled: false,
  name_changes_disabled: false,
  avatar_changes_disabled: false,
  invite_required: true,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  require_unique_names: false,
  require_e2ee_push_notifications: false,
  emails_restricted_to_domains: false,
  send_welcome_emails: true,
  message_content_allowed_in_email_notifications: true,
  enable_spectator_access: false,
  want_advertise_in_communities_directory: false,
  video_chat_provider: 1,
  jitsi_server_url: null as string | null,
  giphy_rating: 2,
  waiting_period_threshold: 0,
  enable_read_receipts: false,
  presence_disabled: false,
  enable_guest_user_dm_warning: true,
  enable_guest_user_indicator: true,
  org_type: 0,
  moderation_request_channel_id: -1,
  new_stream_announcements_stream_id: -1,
  signup_announcements_stream_id: -1,
  zulip_update_announcements_stream_id: -1,
  name_in_email_notifications_policy: 1,
  // Group-valued permission settings (system group names).
  can_access_all_users_group: 'role:everyone',
  can_add_custom_emoji_group: 'role:members',
  can_add_subscribers_group: 'role:members',
  can_create_bots_group: 'role:members',
  can_create_groups: 'role:members',
  can_create_private_channel_group: 'role:members',
  can_create_public_channel_group: 'role:members',
  can_create_web_public_channel_group: 'role:owners',
  can_create_write_only_bots_group: 'role:members',
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
  can_invite_users_group: 'role:members',
  can_manage_all_groups: 'role:owners',
  can_manage_billing_group: 'role:administrators',
  can_mention_many_users_group: 'role:administrators',
  can_move_messages_between_channels_group: 'role:members',
  can_move_messages_between_topics_group: 'role:everyone',
  can_resolve_topics_group: 'role:everyone',
  can_set_delete_message_policy_group: 'role:moderators',
  can_set_topics_policy_group: 'role:moderators',
  can_summarize_topics_group: 'role:everyone',
  create_multiuse_invite_group: 'role:administrators',
  direct_message_initiator_group: 'role:everyone',
  direct_message_permission_group: 'role:everyone',
};

export type RealmSettings = typeof realmSettingDefaults;
export type RealmSettingName = keyof RealmSettings;

/** Settings whose value is a user group (id or anonymous group). */
export const groupSettingNames = (Object.keys(realmSettingDefaults) as RealmSettingName[]).filter(
  (name) => name.startsWith('can_') || name.endsWith('_group'),
);

let lastOverrides: string | null = null;
let lastMerged: RealmSettings | null = null;

/**
 * Settings for the stored overrides. Every request reads them, so the merge
 * for the last overrides string is kept (frozen: callers must copy to change).
 */
export function mergeRealmSettings(overridesJson: string): RealmSettings {
  if (overridesJson === lastOverrides && lastMerged) return lastMerged;
  const merged = mergeFresh(overridesJson);
  lastOverrides = overridesJson;
  lastMerged = merged;
  return merged;
}

function mergeFresh(overridesJson: string): RealmSettings {
  let overrides: Record<string, unknown> = {};
  try {
    overrides = JSON.parse(overridesJson) as Record<string, unknown>;
  } catch {
    // A corrupt overrides column falls back to the defaults rather than failing every request.
  }
  const merged: Record<string, unknown> = { ...realmSettingDefaults };
  for (const [key, value] of Object.entries(overrides)) {
    if (key in realmSettingDefaults) merged[key] = value;
  }
  return Object.freeze(merged) as RealmSettings;
}
