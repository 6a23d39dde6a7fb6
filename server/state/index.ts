import type { AppContext } from '../context.js';
import type { UserRow } from '../db/queries/users.js';
import { channelStateProviders } from './channels.js';
import { messageStateProviders } from './messages.js';
import {
  alertWordsState,
  draftsState,
  miscPersonalState,
  mutedUsersState,
  onboardingStepsState,
  userStatusState,
} from './personal.js';
import { presenceState } from './presence.js';
import { customProfileFieldsState } from './profile-fields.js';
import { realmState } from './realm.js';
import {
  defaultStreamGroupsState,
  defaultStreamsState,
  embeddedBotsState,
  incomingWebhookBotsState,
  realmDomainsState,
  realmEmojiState,
  realmFiltersState,
  realmLinkifiersState,
  realmPlaygroundsState,
} from './realm-config.js';
import { scheduledMessagesState } from './scheduled-messages.js';
import type { StateOptions, StateProvider } from './types.js';
import { userGroupsState } from './user-groups.js';
import {
  legacyDisplaySettingsState,
  legacyNotificationSettingsState,
  realmUserSettingsDefaultsState,
  userSettingsState,
} from './user-settings.js';
import { realmBotState, realmUserState } from './users.js';

/** Every area of the initial state; each later feature adds its provider here. */
export const stateProviders: StateProvider[] = [
  realmState,
  realmUserState,
  realmBotState,
  userSettingsState,
  legacyDisplaySettingsState,
  legacyNotificationSettingsState,
  realmUserSettingsDefaultsState,
  userGroupsState,
  customProfileFieldsState,
  presenceState,
  realmEmojiState,
  realmDomainsState,
  realmLinkifiersState,
  realmFiltersState,
  realmPlaygroundsState,
  defaultStreamsState,
  defaultStreamGroupsState,
  embeddedBotsState,
  incomingWebhookBotsState,
  alertWordsState,
  mutedUsersState,
  userStatusState,
  draftsState,
  onboardingStepsState,
  ...miscPersonalState,
  ...channelStateProviders,
  ...messageStateProviders,
  scheduledMessagesState,
];

/** `types` null = everything (no fetch_event_types and no event_types given). */
export function fetchInitialState(
  ctx: AppContext,
  user: UserRow,
  types: ReadonlySet<string> | null,
  options: StateOptions,
): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const provider of stateProviders) {
    const wanted =
      types === null ||
      (provider.requiresAll
        ? provider.fetchTypes.every((t) => types.has(t))
        : provider.fetchTypes.some((t) => types.has(t)));
    if (wanted) Object.assign(state, provider.fetch(ctx, user, options));
  }
  return state;
}

export type { StateOptions } from './types.js';
