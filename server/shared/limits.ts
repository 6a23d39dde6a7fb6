/**
 * The limits clients can see or run into, in one place: POST /register and
 * /server_settings report several of them, and the rules that enforce them
 * import them from here. Values are Zulip's (protocol-defaults.md).
 */

/** Longer content is truncated, not rejected. */
export const MAX_MESSAGE_LENGTH = 10_000;
/** Longer topics are truncated to 57 characters plus "...". */
export const MAX_TOPIC_LENGTH = 60;
export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;
export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;
/** Longer message-report descriptions (POST /messages/{id}/report) are refused. */
export const MAX_REPORT_MESSAGE_EXPLANATION_LENGTH = 1000;
/** A saved snippet's title, in characters after stripping (Zulip's SavedSnippet.MAX_TITLE_LENGTH); its content is limited to MAX_MESSAGE_LENGTH. */
export const MAX_SAVED_SNIPPET_TITLE_LENGTH = 60;
/** An alert word or phrase as given, in characters (Zulip's MAX_ALERT_WORD_LENGTH). */
export const MAX_ALERT_WORD_LENGTH = 100;
/** Longer reminder notes (POST /reminders) are refused. */
export const MAX_REMINDER_NOTE_LENGTH = 1000;
export const MIN_USER_NAME_LENGTH = 2;
export const MAX_USER_NAME_LENGTH = 100;
export const MAX_USER_GROUP_NAME_LENGTH = 100;
/** Channel-wide mentions in channels with more subscribers need permission. */
export const WILDCARD_MENTION_THRESHOLD = 15;
/** Typing notifications are not sent in channels with more subscribers. */
export const MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS = 100;
/** GET /messages returns at most this many messages. */
export const MAX_MESSAGES_PER_FETCH = 5000;
/** POST /messages/flags/narrow touches at most this many messages per request. */
export const MAX_MESSAGES_PER_UPDATE = 5000;
/** unread_msgs in POST /register lists at most this many messages. */
export const MAX_UNREAD_MESSAGES = 50_000;
/** POST /register lists at most this many drafts, the most recently edited (GET /drafts has all). */
export const MAX_DRAFTS_IN_REGISTER_RESPONSE = 1000;
/** A draft's edit time must be before the year 10000 (the end of Zulip's datetime range). */
export const MAX_DRAFT_TIMESTAMP = 253_402_300_799;
/** User status text, in Unicode code points, after surrounding whitespace is stripped. */
export const MAX_STATUS_TEXT_LENGTH = 60;
/** A bot's storage: keys plus values, in characters (Zulip's USER_STATE_SIZE_LIMIT). */
export const BOT_STORAGE_SIZE_LIMIT = 10_000_000;
/** Longest push token (FCM registration token or APNs device token) accepted, in characters. */
export const MAX_PUSH_TOKEN_LENGTH = 4096;
/** delete_topic deletes this many messages per transaction, newest first (Zulip's batch size). */
export const TOPIC_DELETION_BATCH_SIZE = 100;
/** After this long a delete_topic request answers `complete: false` and the client repeats it. */
export const TOPIC_DELETION_TIME_BUDGET_MS = 50_000;
/** A code playground's language name (Zulip's RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH). */
export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
/** Organization name and description (Zulip's Realm.MAX_REALM_NAME_LENGTH, MAX_REALM_DESCRIPTION_LENGTH). */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;
/** Custom profile fields (Zulip's CustomProfileField): label and hint lengths. */
export const MAX_PROFILE_FIELD_NAME_LENGTH = 40;
export const MAX_PROFILE_FIELD_HINT_LENGTH = 80;
/** At most this many custom profile fields may have display_in_profile_summary. */
export const MAX_PROFILE_SUMMARY_FIELDS = 2;
/** A user's value for a short text, external account or pronouns field. */
export const MAX_PROFILE_SHORT_VALUE_LENGTH = 50;
/** A user's value for a long text field. */
export const MAX_PROFILE_LONG_VALUE_LENGTH = 500;
/** The organization's JWT key (HS256): at least the hash's 256 bits (RFC 7518 §3.2). */
export const MIN_JWT_KEY_BYTES = 32;
export const MAX_JWT_KEY_BYTES = 1024;
/** An embedded bot's configuration: keys and values together, in characters (Zulip's BOT_CONFIG_SIZE_LIMIT). */
export const MAX_BOT_CONFIG_SIZE = 10_000;

/** Zulip's max_file_upload_size_mib default (register, server settings). */
export const MAX_FILE_UPLOAD_SIZE_MIB = 25;
/** Profile pictures (Zulip's MAX_AVATAR_FILE_SIZE_MIB; register's max_avatar_file_size_mib). */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;
/** Custom emoji images (Zulip's MAX_EMOJI_FILE_SIZE_MIB). */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;
/**
 * The largest request body, and the most a multipart form's fields may carry.
 * Message content is capped at 10,000 characters; uploads have their own limit.
 */
export const BODY_LIMIT_BYTES = 4 * 1024 * 1024;
/**
 * The largest payload a tool may post to /api/v1/external/... . A forge's push
 * of many commits lists each one with its files; GitHub itself gives up on
 * deliveries over 25 MB. Larger bodies are refused with REQUEST_TOO_LARGE.
 */
export const MAX_WEBHOOK_BODY_BYTES = 8 * 1024 * 1024;

/** The most of one multipart file the server reads; a longer one is marked truncated. */
export const MAX_UPLOAD_READ_BYTES = MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024 + 1;
/**
 * The most of a refused request's remaining body the server reads and drops
 * so that the client, still sending, gets to read the error
 * (http/refused-body.ts): a form at the file limit plus its fields, and more.
 */
export const REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
/**
 * Bytes of uploads one user may keep, in MiB. Zulip's quota is per
 * organization (none by default); a desktop server shared by a team is
 * better served by a per-user bound, so one member cannot fill the disk.
 */
export const MAX_UPLOAD_SPACE_PER_USER_MIB = 1024;
/** How long a URL from GET /user_uploads/{realm_id}/{filename} works (Zulip: 60 s). */
export const TEMPORARY_UPLOAD_URL_SECONDS = 60;

/** Zulip's Realm.MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH (also an invitation's own text). */
export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;
