import { useEffect, useState } from 'react';
import { Policy, topicPolicy } from '../channels/channel-model.js';
import type { ChatState, ChatStore, Message } from '../data/model.js';
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

const DIRECT_MENTION_FLAGS = ['mentioned', 'has_alert_word'];
const WILDCARD_FLAGS = [
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
];

/** Whether a new message shows a desktop notification, and whether it sounds. */
export interface NotifyChoice {
  desktop: boolean;
  sound: boolean;
}

const on = (settings: Record<string, unknown>, name: string, fallback = true) =>
  typeof settings[name] === 'boolean' ? (settings[name] as boolean) : fallback;

/**
 * Zulip's rule (web/src/message_notifications.ts), from the person's
 * settings: DMs, mentions and alert words by `enable_desktop_notifications`
 * and `enable_sounds`; wildcard mentions only with `wildcard_mentions_notify`
 * (or the channel's own choice); other channel messages by the channel's
 * own setting, else `enable_stream_desktop_notifications` and
 * `enable_stream_audible_notifications`, and followed topics by theirs.
 * Your own, already read messages and muted senders never notify.
 */
export function notifyChoice(message: Message, state: ChatState): NotifyChoice {
  const none = { desktop: false, sound: false };
  if (message.sender_id === state.ownUserId || message.flags.includes('read')) return none;
  if (state.mutedUserIds.has(message.sender_id)) return none;
  const s = state.settings;
  const personal = {
    desktop: on(s, 'enable_desktop_notifications'),
    sound: on(s, 'enable_sounds'),
  };
  if (message.type === 'private') return personal;
  if (message.flags.some((f) => DIRECT_MENTION_FLAGS.includes(f))) return personal;
  const sub =
    message.stream_id === undefined ? undefined : state.subscriptions.get(message.stream_id);
  const choice = { ...none };
  if (message.flags.some((f) => WILDCARD_FLAGS.includes(f))) {
    const wildcard =
      typeof sub?.wildcard_mentions_notify === 'boolean'
        ? sub.wildcard_mentions_notify
        : on(s, 'wildcard_mentions_notify');
    if (wildcard) Object.assign(choice, personal);
  }
  if (sub?.is_muted) return choice;
  const followed =
    message.stream_id !== undefined &&
    topicPolicy(state.userTopics, message.stream_id, message.subject) === Policy.followed;
  const channelDesktop =
    typeof sub?.desktop_notifications === 'boolean'
      ? sub.desktop_notifications
      : on(s, 'enable_stream_desktop_notifications', false);
  const channelSound =
    typeof sub?.audible_notifications === 'boolean'
      ? sub.audible_notifications
      : on(s, 'enable_stream_audible_notifications', false);
  choice.desktop ||=
    channelDesktop || (followed && on(s, 'enable_followed_topic_desktop_notifications'));
  choice.sound ||=
    channelSound || (followed && on(s, 'enable_followed_topic_audible_notifications'));
  return choice;
}

/** Messages received this long after they were sent are history being loaded, not news. */
const FRESH_SECONDS = 60;

/**
 * Shows a desktop notification (and plays a sound) for each new message the
 * person's settings ask for (`notifyChoice`) that arrives while the tab is
 * hidden; clicking one opens its conversation. Sounds play without the
 * browser's permission; notifications need it.
 */
export function useDesktopNotifications(store: ChatStore, permission: NotificationPermissionState) {
  useEffect(() => {
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
      let sound = false;
      for (const message of fresh) {
        if (now - message.timestamp > FRESH_SECONDS) continue;
        const choice = notifyChoice(message, state);
        if (choice.desktop && permission === 'granted') notify(message, store);
        sound ||= choice.sound;
      }
      if (sound) playChime();
    });
  }, [store, permission]);
}

/** A short two-note chime, made in the page (no sound file to fetch). */
function playChime(): void {
  const Context = globalThis.AudioContext;
  if (!Context) return;
  try {
    const audio = new Context();
    const gain = audio.createGain();
    gain.connect(audio.destination);
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.5);
    for (const [frequency, start] of [
      [880, 0],
      [1320, 0.12],
    ] as const) {
      const tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(audio.currentTime + start);
      tone.stop(audio.currentTime + 0.5);
    }
    setTimeout(() => void audio.close(), 800);
  } catch {
    // A browser that refuses audio until the page is used: no sound, no harm.
  }
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
  // Zulip's pm_content_in_desktop_notifications: a DM's text only if the person allows it.
  const hideContent =
    message.type === 'private' && state.settings.pm_content_in_desktop_notifications === false;
  const body = hideContent ? 'New direct message' : textOf(message.content).slice(0, 300);
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
