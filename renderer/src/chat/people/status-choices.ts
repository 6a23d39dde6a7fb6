/**
 * What the status dialog offers: Zulip's suggested statuses and a small set
 * of emoji, by the names Hearth's emoji data gives them (a test checks each
 * name against the server's table).
 */
export interface StatusEmoji {
  emoji_name: string;
  emoji_code: string;
}

export interface StatusPreset extends StatusEmoji {
  status_text: string;
}

/** Zulip's default suggestions in its "Set status" dialog. */
export const STATUS_PRESETS: StatusPreset[] = [
  { status_text: 'Busy', emoji_name: 'working_on_it', emoji_code: '1f6e0' },
  { status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c6' },
  { status_text: 'Commuting', emoji_name: 'bus', emoji_code: '1f68c' },
  { status_text: 'Out sick', emoji_name: 'face_with_thermometer', emoji_code: '1f912' },
  { status_text: 'Vacationing', emoji_name: 'palm_tree', emoji_code: '1f334' },
  { status_text: 'Working remotely', emoji_name: 'house', emoji_code: '1f3e0' },
  { status_text: 'At the office', emoji_name: 'office', emoji_code: '1f3e2' },
];

/** Emoji to choose from without a full picker. */
export const STATUS_EMOJI: StatusEmoji[] = [
  { emoji_name: 'smile', emoji_code: '1f642' },
  { emoji_name: 'working_on_it', emoji_code: '1f6e0' },
  { emoji_name: 'calendar', emoji_code: '1f4c6' },
  { emoji_name: 'bus', emoji_code: '1f68c' },
  { emoji_name: 'face_with_thermometer', emoji_code: '1f912' },
  { emoji_name: 'palm_tree', emoji_code: '1f334' },
  { emoji_name: 'house', emoji_code: '1f3e0' },
  { emoji_name: 'office', emoji_code: '1f3e2' },
  { emoji_name: 'coffee', emoji_code: '2615' },
  { emoji_name: 'headphones', emoji_code: '1f3a7' },
  { emoji_name: 'computer', emoji_code: '1f4bb' },
  { emoji_name: 'airplane', emoji_code: '2708' },
  { emoji_name: 'zzz', emoji_code: '1f4a4' },
  { emoji_name: 'no_entry', emoji_code: '26d4' },
  { emoji_name: 'tada', emoji_code: '1f389' },
  { emoji_name: 'rocket', emoji_code: '1f680' },
];

/** Zulip's limit on status text (user_status.py). */
export const STATUS_TEXT_MAX = 60;
