import type { Migration } from './index.js';

/**
 * The whole schema of the spec. Storage decisions (why per-recipient rows are
 * not written at send time, why the message indexes are partial) are in
 * ../DESIGN.md. Times are UNIX seconds unless a column says `_ms`.
 */
export const initialSchema: Migration = {
  version: 1,
  name: 'initial schema',
  up(db) {
    db.exec(`
      -- One organization per server. Settings beyond the columns live in a
      -- JSON object of overrides, typed and defaulted in domain/realm-settings.ts.
      CREATE TABLE realm (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        email_domain TEXT NOT NULL,
        date_created INTEGER NOT NULL,
        deactivated INTEGER NOT NULL DEFAULT 0,
        settings TEXT NOT NULL DEFAULT '{}',
        jwt_key TEXT
      );

      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        delivery_email TEXT NOT NULL,
        email_key TEXT NOT NULL UNIQUE,        -- lower-cased delivery_email
        full_name TEXT NOT NULL,
        role INTEGER NOT NULL DEFAULT 400 CHECK (role IN (100, 200, 300, 400, 600)),
        is_active INTEGER NOT NULL DEFAULT 1,
        is_bot INTEGER NOT NULL DEFAULT 0,
        bot_type INTEGER CHECK (bot_type IS NULL OR bot_type BETWEEN 1 AND 4),
        bot_owner_id INTEGER REFERENCES users(id),
        api_key TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        date_joined_ms INTEGER NOT NULL,
        timezone TEXT NOT NULL DEFAULT '',
        avatar_source TEXT NOT NULL DEFAULT 'G',
        avatar_version INTEGER NOT NULL DEFAULT 1,
        is_imported_stub INTEGER NOT NULL DEFAULT 0,
        is_deleted INTEGER NOT NULL DEFAULT 0,
        settings TEXT NOT NULL DEFAULT '{}',   -- JSON overrides of user settings
        default_sending_stream_id INTEGER,
        default_events_register_stream_id INTEGER,
        default_all_public_streams INTEGER NOT NULL DEFAULT 0,
        last_login_ms INTEGER
      );
      CREATE INDEX users_bot_owner ON users(bot_owner_id) WHERE bot_owner_id IS NOT NULL;

      CREATE TABLE user_presence (
        user_id INTEGER PRIMARY KEY REFERENCES users(id),
        last_active_time INTEGER,
        last_connected_time INTEGER
      );

      CREATE TABLE user_status (
        user_id INTEGER PRIMARY KEY REFERENCES users(id),
        status_text TEXT NOT NULL DEFAULT '',
        emoji_name TEXT NOT NULL DEFAULT '',
        emoji_code TEXT NOT NULL DEFAULT '',
        reaction_type TEXT NOT NULL DEFAULT 'unicode_emoji',
        timestamp INTEGER NOT NULL
      );

      CREATE TABLE alert_words (
        user_id INTEGER NOT NULL REFERENCES users(id),
        word TEXT NOT NULL,
        PRIMARY KEY (user_id, word)
      ) WITHOUT ROWID;

      CREATE TABLE muted_users (
        user_id INTEGER NOT NULL REFERENCES users(id),
        muted_user_id INTEGER NOT NULL REFERENCES users(id),
        date_muted INTEGER NOT NULL,
        PRIMARY KEY (user_id, muted_user_id)
      ) WITHOUT ROWID;

      CREATE TABLE bot_storage (
        bot_id INTEGER NOT NULL REFERENCES users(id),
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (bot_id, key)
      ) WITHOUT ROWID;

      -- Embedded bots' configuration and outgoing-webhook services.
      CREATE TABLE bot_config (
        bot_id INTEGER NOT NULL REFERENCES users(id),
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (bot_id, key)
      ) WITHOUT ROWID;

      CREATE TABLE bot_services (
        id INTEGER PRIMARY KEY,
        bot_id INTEGER NOT NULL REFERENCES users(id),
        name TEXT NOT NULL,
        base_url TEXT NOT NULL,
        interface INTEGER NOT NULL DEFAULT 1,
        token TEXT NOT NULL
      );

      CREATE TABLE push_device_tokens (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        kind INTEGER NOT NULL,                 -- 1 APNs, 2 FCM/GCM
        token TEXT NOT NULL,
        ios_app_id TEXT,
        last_updated INTEGER NOT NULL,
        UNIQUE (user_id, kind, token)
      );

      -- Channels. Group-valued permission settings hold either a group id or
      -- an anonymous group {direct_members, direct_subgroups} as JSON.
      CREATE TABLE streams (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,          -- lower-cased name
        description TEXT NOT NULL DEFAULT '',
        rendered_description TEXT NOT NULL DEFAULT '',
        invite_only INTEGER NOT NULL DEFAULT 0,
        is_web_public INTEGER NOT NULL DEFAULT 0,
        history_public_to_subscribers INTEGER NOT NULL DEFAULT 1,
        message_retention_days INTEGER,
        date_created INTEGER NOT NULL,
        creator_id INTEGER REFERENCES users(id),
        is_archived INTEGER NOT NULL DEFAULT 0,
        first_message_id INTEGER,
        folder_id INTEGER,
        topics_policy TEXT NOT NULL DEFAULT 'inherit',
        is_recently_active INTEGER NOT NULL DEFAULT 1,
        permissions TEXT NOT NULL DEFAULT '{}'  -- JSON of can_*_group settings
      );

      CREATE TABLE default_streams (
        stream_id INTEGER PRIMARY KEY REFERENCES streams(id)
      );

      -- Per user per channel. Rows survive unsubscription (active = 0) so
      -- settings come back on resubscription, as in Zulip. read_through is the
      -- unread watermark described in DESIGN.md.
      CREATE TABLE subscriptions (
        stream_id INTEGER NOT NULL REFERENCES streams(id),
        user_id INTEGER NOT NULL REFERENCES users(id),
        active INTEGER NOT NULL DEFAULT 1,
        color TEXT NOT NULL,
        is_muted INTEGER NOT NULL DEFAULT 0,
        pin_to_top INTEGER NOT NULL DEFAULT 0,
        desktop_notifications INTEGER,
        audible_notifications INTEGER,
        push_notifications INTEGER,
        email_notifications INTEGER,
        wildcard_mentions_notify INTEGER,
        read_through INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (stream_id, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX subscriptions_by_user ON subscriptions(user_id, stream_id);

      -- Which message ids a user received in a channel: [first, last] while
      -- subscribed (last NULL = still subscribed). Replaces Zulip's per-message
      -- UserMessage rows for channel messages.
      CREATE TABLE subscription_periods (
        user_id INTEGER NOT NULL,
        stream_id INTEGER NOT NULL,
        first_message_id INTEGER NOT NULL,
        last_message_id INTEGER,
        PRIMARY KEY (user_id, stream_id, first_message_id)
      ) WITHOUT ROWID;

      -- Direct-message conversations: one row per distinct set of participants
      -- (a 1:1 conversation and a message to oneself are groups too).
      CREATE TABLE dm_groups (
        id INTEGER PRIMARY KEY,
        member_key TEXT NOT NULL UNIQUE         -- sorted user ids, comma-joined
      );
      CREATE TABLE dm_group_members (
        dm_group_id INTEGER NOT NULL REFERENCES dm_groups(id),
        user_id INTEGER NOT NULL REFERENCES users(id),
        read_through INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (dm_group_id, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX dm_group_members_by_user ON dm_group_members(user_id, dm_group_id);

      -- Messages. Exactly one of stream_id / dm_group_id is set. Indexes are
      -- partial so each insert touches only the indexes of its own kind.
      CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        sender_id INTEGER NOT NULL REFERENCES users(id),
        stream_id INTEGER REFERENCES streams(id),
        dm_group_id INTEGER REFERENCES dm_groups(id),
        topic TEXT NOT NULL DEFAULT '',
        topic_key TEXT NOT NULL DEFAULT '',     -- case-folded topic
        content TEXT NOT NULL,
        rendered_content TEXT NOT NULL,
        date_sent INTEGER NOT NULL,
        last_edit_time INTEGER,
        last_moved_time INTEGER,
        sending_client TEXT NOT NULL DEFAULT '',
        is_me_message INTEGER NOT NULL DEFAULT 0,
        has_link INTEGER NOT NULL DEFAULT 0,
        has_image INTEGER NOT NULL DEFAULT 0,
        has_attachment INTEGER NOT NULL DEFAULT 0,
        CHECK ((stream_id IS NULL) <> (dm_group_id IS NULL))
      );
      CREATE INDEX messages_by_stream_topic ON messages(stream_id, topic_key, id)
        WHERE stream_id IS NOT NULL;
      -- sender_id makes unread counting (id above a watermark, not one's own) index-only.
      CREATE INDEX messages_by_stream ON messages(stream_id, id, sender_id) WHERE stream_id IS NOT NULL;
      CREATE INDEX messages_by_dm_group ON messages(dm_group_id, id, sender_id) WHERE dm_group_id IS NOT NULL;
      CREATE INDEX messages_by_sender ON messages(sender_id, id);

      -- Full-text search over topic and the text of the rendered content.
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        topic, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
      );

      -- Sparse per-user flags: a row exists only where a user's flags differ
      -- from the defaults computed from read watermarks (see DESIGN.md); when
      -- present it is authoritative for every flag of that user and message.
      CREATE TABLE user_message_flags (
        user_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        flags INTEGER NOT NULL,
        PRIMARY KEY (user_id, message_id)
      ) WITHOUT ROWID;
      CREATE INDEX user_message_flags_by_message ON user_message_flags(message_id);
      -- Unread overrides only (a mention not yet read, a message marked unread):
      -- small, so unread counts never scan a user's read history.
      CREATE INDEX user_message_flags_unread ON user_message_flags(user_id, message_id)
        WHERE (flags & 1) = 0;

      CREATE TABLE message_edits (
        id INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        user_id INTEGER REFERENCES users(id),
        timestamp INTEGER NOT NULL,
        prev_content TEXT,
        prev_rendered_content TEXT,
        prev_topic TEXT,
        topic TEXT,
        prev_stream_id INTEGER,
        stream_id INTEGER,
        content_html_diff TEXT
      );
      CREATE INDEX message_edits_by_message ON message_edits(message_id, id);

      CREATE TABLE reactions (
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id),
        reaction_type TEXT NOT NULL,
        emoji_code TEXT NOT NULL,
        emoji_name TEXT NOT NULL,
        id INTEGER NOT NULL,                    -- insertion order
        PRIMARY KEY (message_id, user_id, reaction_type, emoji_code)
      ) WITHOUT ROWID;

      CREATE TABLE submessages (
        id INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        sender_id INTEGER NOT NULL REFERENCES users(id),
        msg_type TEXT NOT NULL,
        content TEXT NOT NULL
      );
      CREATE INDEX submessages_by_message ON submessages(message_id);

      -- Personal topic preferences (visibility_policy 0..3).
      CREATE TABLE user_topics (
        user_id INTEGER NOT NULL REFERENCES users(id),
        stream_id INTEGER NOT NULL REFERENCES streams(id),
        topic_key TEXT NOT NULL,
        topic_name TEXT NOT NULL,
        visibility_policy INTEGER NOT NULL CHECK (visibility_policy BETWEEN 0 AND 3),
        last_updated INTEGER NOT NULL,
        PRIMARY KEY (user_id, stream_id, topic_key)
      ) WITHOUT ROWID;

      CREATE TABLE drafts (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        type TEXT NOT NULL CHECK (type IN ('', 'stream', 'private')),
        recipients TEXT NOT NULL,               -- JSON array of ids
        topic TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL,
        last_edit_time INTEGER NOT NULL
      );
      CREATE INDEX drafts_by_user ON drafts(user_id, id);

      CREATE TABLE scheduled_messages (
        id INTEGER PRIMARY KEY,
        sender_id INTEGER NOT NULL REFERENCES users(id),
        type TEXT NOT NULL CHECK (type IN ('stream', 'private')),
        stream_id INTEGER REFERENCES streams(id),
        recipient_ids TEXT,                     -- JSON array of user ids (direct)
        topic TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL,
        rendered_content TEXT NOT NULL,
        scheduled_timestamp INTEGER NOT NULL,
        sending_client TEXT NOT NULL DEFAULT '',
        read_by_sender INTEGER,
        is_reminder INTEGER NOT NULL DEFAULT 0,
        reminder_target_message_id INTEGER,
        delivered INTEGER NOT NULL DEFAULT 0,
        delivered_message_id INTEGER,
        failed INTEGER NOT NULL DEFAULT 0,
        failure_message TEXT
      );
      CREATE INDEX scheduled_messages_due ON scheduled_messages(scheduled_timestamp)
        WHERE delivered = 0 AND failed = 0;
      CREATE INDEX scheduled_messages_by_sender ON scheduled_messages(sender_id, id);

      CREATE TABLE custom_profile_fields (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        hint TEXT NOT NULL DEFAULT '',
        field_type INTEGER NOT NULL CHECK (field_type BETWEEN 1 AND 8),
        field_data TEXT NOT NULL DEFAULT '',
        sort_order INTEGER NOT NULL,
        display_in_profile_summary INTEGER NOT NULL DEFAULT 0,
        required INTEGER NOT NULL DEFAULT 0,
        editable_by_user INTEGER NOT NULL DEFAULT 1,
        use_for_user_matching INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE custom_profile_field_values (
        user_id INTEGER NOT NULL REFERENCES users(id),
        field_id INTEGER NOT NULL REFERENCES custom_profile_fields(id) ON DELETE CASCADE,
        value TEXT NOT NULL,
        rendered_value TEXT,
        PRIMARY KEY (user_id, field_id)
      ) WITHOUT ROWID;

      CREATE TABLE realm_playgrounds (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        pygments_language TEXT NOT NULL,
        url_template TEXT NOT NULL,
        UNIQUE (pygments_language, name)
      );

      CREATE TABLE realm_domains (
        id INTEGER PRIMARY KEY,
        domain TEXT NOT NULL UNIQUE,
        allow_subdomains INTEGER NOT NULL DEFAULT 0
      );

      CREATE TABLE realm_linkifiers (
        id INTEGER PRIMARY KEY,
        pattern TEXT NOT NULL,
        url_template TEXT NOT NULL,
        sort_order INTEGER NOT NULL
      );

      CREATE TABLE realm_emoji (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        author_id INTEGER REFERENCES users(id),
        file_name TEXT NOT NULL,
        is_animated INTEGER NOT NULL DEFAULT 0,
        deactivated INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX realm_emoji_by_name ON realm_emoji(name);

      -- User groups, system groups included. System groups nest
      -- (owners within administrators within moderators ...) via subgroups.
      CREATE TABLE user_groups (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        description TEXT NOT NULL DEFAULT '',
        is_system_group INTEGER NOT NULL DEFAULT 0,
        deactivated INTEGER NOT NULL DEFAULT 0,
        date_created INTEGER,
        creator_id INTEGER REFERENCES users(id),
        permissions TEXT NOT NULL DEFAULT '{}'  -- JSON of can_*_group settings
      );
      CREATE TABLE user_group_members (
        group_id INTEGER NOT NULL REFERENCES user_groups(id),
        user_id INTEGER NOT NULL REFERENCES users(id),
        PRIMARY KEY (group_id, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX user_group_members_by_user ON user_group_members(user_id, group_id);
      CREATE TABLE user_group_subgroups (
        group_id INTEGER NOT NULL REFERENCES user_groups(id),
        subgroup_id INTEGER NOT NULL REFERENCES user_groups(id),
        PRIMARY KEY (group_id, subgroup_id)
      ) WITHOUT ROWID;

      CREATE TABLE attachments (
        id INTEGER PRIMARY KEY,
        owner_id INTEGER NOT NULL REFERENCES users(id),
        path_id TEXT NOT NULL UNIQUE,
        file_name TEXT NOT NULL,
        size INTEGER NOT NULL,
        create_time_ms INTEGER NOT NULL
      );
      CREATE TABLE attachment_messages (
        attachment_id INTEGER NOT NULL REFERENCES attachments(id) ON DELETE CASCADE,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (attachment_id, message_id)
      ) WITHOUT ROWID;
    `);
  },
};
