/**
 * Keyboard shortcuts asking one message's actions for something its menu
 * offers (`i` the menu, `:` the emoji picker, `e` edit, `>` quote): the
 * shell names the selected message, the message's own actions component
 * does it, with the permissions and dialogs it already has.
 */
export type MessageCommand = 'menu' | 'react' | 'edit' | 'quote';

type Listener = (command: MessageCommand) => void;
const listeners = new Map<number, Set<Listener>>();

/** Asks message `messageId`'s actions for `command`; false when it is not on screen. */
export function requestMessageCommand(messageId: number, command: MessageCommand): boolean {
  const forMessage = listeners.get(messageId);
  if (!forMessage || forMessage.size === 0) return false;
  for (const listener of forMessage) listener(command);
  return true;
}

/** A message's actions listen here while shown; returns the unsubscribe. */
export function onMessageCommand(messageId: number, listener: Listener): () => void {
  let forMessage = listeners.get(messageId);
  if (!forMessage) {
    forMessage = new Set();
    listeners.set(messageId, forMessage);
  }
  forMessage.add(listener);
  return () => {
    forMessage.delete(listener);
    if (forMessage.size === 0) listeners.delete(messageId);
  };
}
