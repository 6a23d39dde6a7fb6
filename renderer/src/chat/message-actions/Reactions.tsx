import type { Message } from '../data/model.js';

/** The reaction chips under a message (click to add or remove yours). STUB. */
export function Reactions(_props: { message: Message }) {
  return null;
}
