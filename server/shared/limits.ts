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
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;
export const MIN_USER_NAME_LENGTH = 2;
export const MAX_USER_NAME_LENGTH = 100;
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
/** The organization's JWT key (HS256): at least the hash's 256 bits (RFC 7518 §3.2). */
export const MIN_JWT_KEY_BYTES = 32;
export const MAX_JWT_KEY_BYTES = 1024;
/** An embedded bot's configuration: keys and values together, in characters (Zulip's BOT_CONFIG_SIZE_LIMIT). */
export const MAX_BOT_CONFIG_SIZE = 10_000;
