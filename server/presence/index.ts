/** Presence: reporting it, reading it, and its register state. */
export {
  getRealmPresence,
  getUserPresence,
  type RecentPresence,
  recordRecentPresence,
  setPresenceEnabled,
  updatePresence,
} from './presence.js';
export {
  PRESENCE_OFFLINE_THRESHOLD_SECONDS,
  PRESENCE_PING_INTERVAL_SECONDS,
  presenceState,
} from './state.js';
