import type * as Api from '../../../../server/shared/zulip-api/index.js';
import { type Apply, type Handlers, mapWith, mapWithout } from './event-kit.js';
import type { ChatState, Draft } from './model.js';

/** Settings events: the user's settings, alert words, drafts, the organization and its emoji. */

const onUserSettings: Apply<'user_settings'> = (state, event) =>
  event.op === 'update'
    ? { ...state, settings: { ...state.settings, [event.property!]: event.value } }
    : state;

/** The legacy `update_display_settings` / `update_global_notifications` events some servers still send. */
/** `update_display_settings` names its setting `setting_name`; `update_global_notifications`, `notification_name`. */
const onLegacySettings: Apply<'update_display_settings' | 'update_global_notifications'> = (
  state,
  event,
) => {
  const name = 'setting_name' in event ? event.setting_name : event.notification_name;
  return typeof name === 'string'
    ? { ...state, settings: { ...state.settings, [name]: event.setting } }
    : state;
};

/** A server draft that names its id: all do, though the API's Draft (also what clients send) may not. */
export const hasDraftId = (draft: Api.Draft): draft is Draft => typeof draft.id === 'number';

const onDrafts: Apply<'drafts'> = (state, event) => {
  switch (event.op) {
    case 'add': {
      const drafts = new Map(state.drafts);
      for (const draft of event.drafts.filter(hasDraftId)) drafts.set(draft.id, draft);
      return { ...state, drafts };
    }
    case 'update':
      return hasDraftId(event.draft)
        ? { ...state, drafts: mapWith(state.drafts, event.draft.id, event.draft) }
        : state;
    case 'remove':
      return { ...state, drafts: mapWithout(state.drafts, event.draft_id) };
    default:
      return state;
  }
};

const onRealm: Apply<'realm'> = (state, event) => {
  const changes: Record<string, unknown> =
    event.op === 'update'
      ? { [event.property!]: event.value }
      : event.op === 'update_dict'
        ? (event.data ?? {})
        : {};
  if (Object.keys(changes).length === 0) return state;
  const settings = { ...state.realm.settings };
  for (const [key, value] of Object.entries(changes)) settings[`realm_${key}`] = value;
  const name = typeof changes.name === 'string' ? changes.name : state.realm.name;
  const maxFileUploadSizeMib =
    typeof changes.max_file_upload_size_mib === 'number'
      ? changes.max_file_upload_size_mib
      : state.realm.maxFileUploadSizeMib;
  return { ...state, realm: { ...state.realm, name, settings, maxFileUploadSizeMib } };
};

const onRealmEmoji: Apply<'realm_emoji'> = (state, event) =>
  event.op === 'update'
    ? {
        ...state,
        realm: { ...state.realm, emoji: event.realm_emoji as ChatState['realm']['emoji'] },
      }
    : state;

/** `alert_words`: the whole list, each time it changes. */
const onAlertWords: Apply<'alert_words'> = (state, event) =>
  Array.isArray(event.alert_words)
    ? { ...state, alertWords: event.alert_words.filter((w: unknown) => typeof w === 'string') }
    : state;

/** The organization's code playgrounds, kept where register put them (`realm_playgrounds`). */
const onRealmPlaygrounds: Apply<'realm_playgrounds'> = (state, event) => ({
  ...state,
  realm: {
    ...state.realm,
    settings: { ...state.realm.settings, realm_playgrounds: event.realm_playgrounds ?? [] },
  },
});

export const settingsHandlers: Handlers = {
  user_settings: onUserSettings,
  update_display_settings: onLegacySettings,
  update_global_notifications: onLegacySettings,
  drafts: onDrafts,
  alert_words: onAlertWords,
  realm: onRealm,
  realm_emoji: onRealmEmoji,
  realm_playgrounds: onRealmPlaygrounds,
};
