/**
 * What the chat registers with. Its own module (no store behind it) so the
 * page's first script, boot.ts, can send the same register as the store
 * before the app's bundle has loaded.
 */

/** What a modern Zulip client declares (server/events/queue.ts lists what Hearth knows). */
export const CLIENT_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
  user_list_incomplete: false,
  include_deactivated_groups: true,
  archived_channels: true,
  empty_topic_name: true,
  simplified_presence_events: true,
};

export const REGISTER_PARAMS = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  include_subscribers: false,
  client_capabilities: CLIENT_CAPABILITIES,
};
