/** Zulip's limits on what is sent, checked before sending so the person can fix the text in place. */
import type { ComposeTarget } from '../data/model.js';
import type { EditingTarget } from './RecipientFields.js';

/** Zulip's MAX_MESSAGE_LENGTH and MAX_TOPIC_NAME_LENGTH, counted in characters as the server counts them. */
export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_TOPIC_LENGTH = 60;

/** Characters (code points), not UTF-16 units: an emoji is one. */
export const textLength = (text: string) => [...text].length;

/** Why the message cannot be sent yet (Zulip's wording), or null. */
export function contentProblem(input: {
  editing: EditingTarget;
  target: ComposeTarget | null;
  text: string;
  uploading: boolean;
  topicsRequired: boolean;
}): string | null {
  const { editing, target, text } = input;
  if (!target) {
    return editing.kind === 'channel'
      ? 'Please specify a channel.'
      : 'Please specify at least one valid recipient.';
  }
  if (target.kind === 'channel') {
    if (input.topicsRequired && target.topic === '')
      return 'Topics are required in this organization.';
    if (textLength(target.topic) > MAX_TOPIC_LENGTH) {
      return `Topic length shouldn't be greater than ${MAX_TOPIC_LENGTH} characters.`;
    }
  }
  if (text.trim() === '') return 'You have nothing to send!';
  if (textLength(text) > MAX_MESSAGE_LENGTH) {
    return `Message length shouldn't be greater than ${MAX_MESSAGE_LENGTH} characters.`;
  }
  if (input.uploading) return 'Please wait for your files to finish uploading.';
  return null;
}
