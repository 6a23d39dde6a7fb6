import { useEffect, useState } from 'react';
import type { ChatStore, Message } from '../data/model.js';
import { dmParticipants, participantNames } from './feed/conversation.js';
import { dmNarrow, topicNarrow } from './narrows.js';
import { hashFor, navigate } from './routing.js';

/** `unsupported` where the browser has no Notification API (or an insecure LAN page lacks it). */
export type NotificationPermissionState = NotificationPermission | 'unsupported';

export const notificationPermission = (): NotificationPermissionState =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

/** Asks only from a click (browsers ignore unprompted asks, and people dislike them). */
export async function requestNotifications(): Promise<void> {
  if (typeof Notification !== 'undefined') await Notification.requestPermission();
}

export function useNotificationPermission(): [NotificationPermissionState, () => void] {
  const [permission, setPermission] = useState(notificationPermission);
  return [permission, () => setPermission(notificationPermission())];
}

const MENTION_FLAGS = [
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'has_alert_word',
];

/** DMs and mentions notify, as Zulip's defaults do; your own and already-read messages never. */
export function shouldNotify(message: Message, ownUserId: number): boolean {
  if (message.sender_id === ownUserId || message.flags.includes('read')) return false;
  return message.type === 'private' || message.flags.some((f) => MENTION_FLAGS.includes(f));
}

/** Messages received this long after they were sent are history being loaded, not news. */
const FRESH_SECONDS = 60;

/**
 * Shows a desktop notification for each new DM or mention that arrives while
 * the tab is hidden; clicking one opens its conversation.
 */
export function useDesktopNotifications(store: ChatStore, permission: NotificationPermissionState) {
  useEffect(() => {
    if (permission !== 'granted') return;
    let newestSeen = 0;
    for (const id of store.getState().messages.keys()) newestSeen = Math.max(newestSeen, id);
    let messages = store.getState().messages;
    return store.subscribe(() => {
      const state = store.getState();
      if (state.messages === messages) return;
      messages = state.messages;
      const now = Date.now() / 1000;
      const fresh: Message[] = [];
      for (const [id, message] of messages) {
        if (id > newestSeen && message.local_id === undefined) fresh.push(message);
      }
      for (const message of fresh) newestSeen = Math.max(newestSeen, message.id);
      if (document.visibilityState === 'visible' && document.hasFocus()) return;
      for (const message of fresh) {
        if (now - message.timestamp > FRESH_SECONDS) continue;
        if (!shouldNotify(message, state.ownUserId)) continue;
        notify(message, store);
      }
    });
  }, [store, permission]);
}

function notify(message: Message, store: ChatStore): void {
  const state = store.getState();
  const others = dmParticipants(message, state.ownUserId);
  const title =
    message.type === 'private'
      ? others.length > 1
        ? `${message.sender_full_name} to ${participantNames(others, state.users)}`
        : message.sender_full_name
      : `${message.sender_full_name} (#${typeof message.display_recipient === 'string' ? message.display_recipient : ''} > ${message.subject})`;
  const body = textOf(message.content).slice(0, 300);
  const notification = new Notification(title, { body, tag: `hearth-${message.id}` });
  notification.onclick = () => {
    window.focus();
    const narrow =
      message.type === 'private'
        ? dmNarrow(others, state.ownUserId)
        : topicNarrow(message.stream_id ?? 0, message.subject);
    navigate(hashFor(narrow, store.getState()));
    notification.close();
  };
}

/** The plain text of rendered HTML, without running or loading anything in it. */
function textOf(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
