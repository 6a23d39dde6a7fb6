/** protocol-defaults.md: longer content is truncated, not rejected. */
export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_TOPIC_LENGTH = 60;
