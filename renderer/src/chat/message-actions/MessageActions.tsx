import type { Message } from '../data/model.js';

/** The actions button (and its menu and dialogs) on one message. STUB: replaced by the message-actions work. */
export function MessageActions(_props: { message: Message }) {
  return null;
}
