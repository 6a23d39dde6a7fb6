import type { Route } from '../route.js';
import { alertWordRoutes } from './alert-words.js';
import { avatarRoutes } from './avatars.js';
import { botStorageRoutes } from './bot-storage.js';
import { botRoutes } from './bots.js';
import { channelFolderRoutes } from './channel-folders.js';
import { channelRoutes } from './channels.js';
import { chatSessionRoutes } from './chat-session.js';
import { defaultChannelRoutes } from './default-channels.js';
import { draftRoutes } from './drafts.js';
import { eventRoutes } from './events.js';
import { exportRoutes } from './exports.js';
import { flagRoutes } from './flags.js';
import { integrationRoutes } from './integrations.js';
import { inviteRoutes } from './invites.js';
import { linkifierRoutes } from './linkifiers.js';
import { messageEditRoutes } from './message-edits.js';
import { messageFetchRoutes } from './message-fetch.js';
import { messageRoutes } from './messages.js';
import { mutedUserRoutes } from './muted-users.js';
import { navigationViewRoutes } from './navigation-views.js';
import { onboardingRoutes } from './onboarding.js';
import { playgroundRoutes } from './playgrounds.js';
import { presenceRoutes } from './presence.js';
import { profileFieldRoutes } from './profile-fields.js';
import { pushRoutes } from './push.js';
import { reactionRoutes } from './reactions.js';
import { realmRoutes } from './realm.js';
import { realmDomainRoutes } from './realm-domains.js';
import { realmEmojiRoutes } from './realm-emoji.js';
import { reminderRoutes } from './reminders.js';
import { savedSnippetRoutes } from './saved-snippets.js';
import { scheduledMessageRoutes } from './scheduled-messages.js';
import { serverRoutes } from './server.js';
import { settingsRoutes } from './settings.js';
import { staticFileRoutes } from './static-files.js';
import { subscriptionRoutes } from './subscriptions.js';
import { topicRoutes } from './topics.js';
import { typingRoutes } from './typing.js';
import { uploadRoutes } from './uploads.js';
import { userGroupRoutes } from './user-groups.js';
import { userStatusRoutes } from './user-status.js';
import { userRoutes } from './users.js';

/** Every endpoint, one file per resource. */
export const allRoutes: Route[] = [
  ...serverRoutes,
  ...userRoutes,
  ...inviteRoutes,
  ...alertWordRoutes,
  ...mutedUserRoutes,
  ...botRoutes,
  ...eventRoutes,
  ...messageRoutes,
  ...messageFetchRoutes,
  ...messageEditRoutes,
  ...reactionRoutes,
  ...typingRoutes,
  ...flagRoutes,
  ...channelRoutes,
  ...channelFolderRoutes,
  ...subscriptionRoutes,
  ...defaultChannelRoutes,
  ...presenceRoutes,
  ...scheduledMessageRoutes,
  ...draftRoutes,
  ...savedSnippetRoutes,
  ...navigationViewRoutes,
  ...userStatusRoutes,
  ...reminderRoutes,
  ...botStorageRoutes,
  ...pushRoutes,
  ...topicRoutes,
  ...playgroundRoutes,
  ...linkifierRoutes,
  ...onboardingRoutes,
  ...realmDomainRoutes,
  ...realmRoutes,
  ...profileFieldRoutes,
  ...userGroupRoutes,
  ...settingsRoutes,
  ...realmEmojiRoutes,
  ...staticFileRoutes,
  ...avatarRoutes,
  ...uploadRoutes,
  ...chatSessionRoutes,
  ...integrationRoutes,
  ...exportRoutes,
];
