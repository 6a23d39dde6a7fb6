import { backupRouter } from './backup.js';
import { botRouter } from './bots.js';
import { channelRouter } from './channels.js';
import { desktopRouter } from './desktop.js';
import { emojiRouter } from './emoji.js';
import { groupRouter } from './groups.js';
import { router } from './init.js';
import { integrationRouter } from './integrations.js';
import { logsRouter } from './logs.js';
import { networkRouter } from './network.js';
import { organizationRouter, serverRouter } from './organization.js';
import { profileFieldRouter } from './profile-fields.js';
import {
  invitationRouter,
  linkifierRouter,
  playgroundRouter,
  realmDomainRouter,
} from './realm-extras.js';
import { scheduledRouter } from './scheduled.js';
import { setupRouter } from './setup.js';
import { userRouter } from './users.js';
import { zulipRouter } from './zulip.js';

/*
 * Thin adapters, as the HTTP routes are: each procedure file checks the
 * input's shape and calls the operation the matching /api/v1 endpoint calls.
 * Permissions, validation messages and events all come from the areas.
 */
export function createAppRouter() {
  return router({
    setup: setupRouter,
    server: serverRouter,
    organization: organizationRouter,
    users: userRouter,
    bots: botRouter,
    channels: channelRouter,
    groups: groupRouter,
    profileFields: profileFieldRouter,
    playgrounds: playgroundRouter,
    linkifiers: linkifierRouter,
    invitations: invitationRouter,
    realmDomains: realmDomainRouter,
    scheduled: scheduledRouter,
    backup: backupRouter,
    desktop: desktopRouter,
    network: networkRouter,
    logs: logsRouter,
    emoji: emojiRouter,
    integrations: integrationRouter,
    zulip: zulipRouter,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
