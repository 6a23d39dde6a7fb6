import type { Route } from '../route.js';
import { botRoutes } from './bots.js';
import { channelRoutes } from './channels.js';
import { draftRoutes } from './drafts.js';
import { eventRoutes } from './events.js';
import { flagRoutes } from './flags.js';
import { messageEditRoutes } from './message-edits.js';
import { messageFetchRoutes } from './message-fetch.js';
import { messageRoutes } from './messages.js';
import { presenceRoutes } from './presence.js';
import { reminderRoutes } from './reminders.js';
import { scheduledMessageRoutes } from './scheduled-messages.js';
import { serverRoutes } from './server.js';
import { subscriptionRoutes } from './subscriptions.js';
import { userGroupRoutes } from './user-groups.js';
import { userStatusRoutes } from './user-status.js';
import { userRoutes } from './users.js';

/** Every endpoint, one file per resource. */
export const allRoutes: Route[] = [
  ...serverRoutes,
  ...userRoutes,
  ...botRoutes,
  ...eventRoutes,
  ...messageRoutes,
  ...messageFetchRoutes,
  ...messageEditRoutes,
  ...flagRoutes,
  ...channelRoutes,
  ...subscriptionRoutes,
  ...presenceRoutes,
  ...scheduledMessageRoutes,
  ...draftRoutes,
  ...userStatusRoutes,
  ...reminderRoutes,
  ...userGroupRoutes,
];
