import { alertWordsState } from '../alert-words/index.js';
import { channelFoldersState } from '../channel-folders/index.js';
import { sharingWeeklyTraffic } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { defaultStreamGroupsState, defaultStreamsState } from '../default-channels/index.js';
import { draftsState } from '../drafts/index.js';
import { realmEmojiState } from '../emoji/index.js';
import type { StateOptions, StateProvider } from '../events/state-provider.js';
import { flagStateProviders } from '../flags/index.js';
import { userGroupsState } from '../groups/index.js';
import { incomingWebhookBotsState } from '../integrations/index.js';
import { realmFiltersState, realmLinkifiersState } from '../linkifiers/index.js';
import { recentPrivateConversationsState } from '../messages/index.js';
import { mutedUsersState } from '../muted-users/index.js';
import { navigationViewsState } from '../navigation-views/index.js';
import { realmPlaygroundsState } from '../playgrounds/index.js';
import { presenceState } from '../presence/index.js';
import { customProfileFieldsState } from '../profile-fields/index.js';
import { devicesState } from '../push/index.js';
import { embeddedBotsState, realmState } from '../realm/index.js';
import { realmDomainsState } from '../realm-domains/index.js';
import { savedSnippetsState } from '../saved-snippets/index.js';
import { remindersState, scheduledMessagesState } from '../scheduled/index.js';
import { channelStateProviders } from '../subscriptions/index.js';
import { topicStateProviders } from '../topics/index.js';
import { userStatusState } from '../user-status/index.js';
import {
  legacyDisplaySettingsState,
  legacyNotificationSettingsState,
  miscPersonalState,
  onboardingStepsState,
  realmBotState,
  realmUserSettingsDefaultsState,
  realmUserState,
  userSettingsState,
} from '../users/index.js';

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
  channelFoldersState,
  navigationViewsState,
  embeddedBotsState,
  incomingWebhookBotsState,
  alertWordsState,
  mutedUsersState,
  userStatusState,
  draftsState,
  savedSnippetsState,
  onboardingStepsState,
  ...miscPersonalState,
  ...channelStateProviders,
  ...flagStateProviders,
  recentPrivateConversationsState,
  ...topicStateProviders,
  scheduledMessagesState,
  remindersState,
  devicesState,
];

/** `types` null = everything (no fetch_event_types and no event_types given). */
export function fetchInitialState(
  ctx: AppContext,
  user: UserRow,
  types: ReadonlySet<string> | null,
  options: StateOptions,
): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  // subscriptions and streams show the same channels' traffic.
  sharingWeeklyTraffic(ctx, () => {
    for (const provider of stateProviders) {
      const wanted =
        types === null ||
        (provider.requiresAll
          ? provider.fetchTypes.every((t) => types.has(t))
          : provider.fetchTypes.some((t) => types.has(t)));
      if (wanted) Object.assign(state, provider.fetch(ctx, user, options));
    }
  });
  return state;
}

export type { StateOptions } from '../events/state-provider.js';
