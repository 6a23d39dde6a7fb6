/**
 * The shape of an export profile: one Zulip release line's import contract
 * as data (see zulip-12.ts). Nothing here is Zulip-version specific; the
 * values are.
 */
export interface TableContract {
  /** Keys the importer indexes: a row without one stops `manage.py import` (KeyError). */
  required: readonly string[];
  /** Model fields: a key outside these stops the import (`Model(**row)` TypeError). */
  allowed: readonly string[];
  /** Keys that must never be written (the importer overwrites them or they collide). */
  forbidden?: readonly string[];
}

export interface ExportProfile {
  profile: string;
  zulip_release_line: string;
  zulip_major: number;
  tested_zulip_versions: readonly string[];
  source: {
    repository: string;
    revision: string;
    derived_on: string;
    files: Readonly<Record<string, string>>;
  };
  message_batch_size: number;
  required_files: readonly string[];
  optional_files: readonly string[];
  never_write: readonly string[];
  required_top_level: readonly string[];
  optional_top_level: readonly string[];
  group_block: readonly string[];
  date_fields: Readonly<Record<string, readonly string[]>>;
  tables: Readonly<Record<string, TableContract>>;
  foreign_keys: Readonly<Record<string, Readonly<Record<string, string>>>>;
  group_settings: Readonly<Record<string, readonly string[]>>;
  system_groups: readonly string[];
  flags: Readonly<Record<string, number>>;
  enums: {
    recipient_type: { personal: number; stream: number; direct_message_group: number };
    role: readonly number[];
    bot_type: readonly number[];
    custom_profile_field_type: readonly number[];
    user_field_type: number;
    visibility_policy: readonly number[];
    reaction_type: readonly string[];
    avatar_source: readonly string[];
    message_type_normal: number;
    scheduled_delivery_type: { send_later: number; remind: number };
    realm_topics_policy: Readonly<Record<string, number>>;
    stream_topics_policy: Readonly<Record<string, number>>;
    message_edit_history_visibility_policy: Readonly<Record<string, number>>;
    resolved_topic_notice_auto_read_policy: Readonly<Record<string, number>>;
  };
  limits: { topic_length: number; stream_name_length: number; full_name_length: number };
  cross_realm_bots: readonly string[];
  authentication_methods: readonly string[];
  not_transferred: readonly string[];
}
