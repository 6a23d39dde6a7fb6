import type { ComponentType } from 'react';
import { BackupsPage } from './pages/backups/BackupsPage.js';
import { BotsPage } from './pages/bots/BotsPage.js';
import { ChannelPage } from './pages/channels/ChannelPage.js';
import { ChannelsPage } from './pages/channels/ChannelsPage.js';
import { DomainsPage } from './pages/domains/DomainsPage.js';
import { EmojiPage } from './pages/emoji/EmojiPage.js';
import { GroupPage } from './pages/groups/GroupPage.js';
import { GroupsPage } from './pages/groups/GroupsPage.js';
import { IntegrationsPage } from './pages/integrations/IntegrationsPage.js';
import { InvitationsPage } from './pages/invitations/InvitationsPage.js';
import { LinkifiersPage } from './pages/linkifiers/LinkifiersPage.js';
import { LogsPage } from './pages/logs/LogsPage.js';
import { NetworkPage } from './pages/network/NetworkPage.js';
import { OrganizationPage } from './pages/organization/OrganizationPage.js';
import { PlaygroundsPage } from './pages/playgrounds/PlaygroundsPage.js';
import { ProfileFieldsPage } from './pages/profile-fields/ProfileFieldsPage.js';
import { ScheduledPage } from './pages/scheduled/ScheduledPage.js';
import { StatusPage } from './pages/status/StatusPage.js';
import { UsersPage } from './pages/users/UsersPage.js';
import { MoveToZulipPage } from './pages/zulip/MoveToZulipPage.js';

export interface Section {
  /** Under the app's base (/admin over HTTP). */
  path: string;
  label: string;
  page: ComponentType;
}

/** The admin UI's pages, in the navigation's order. */
export const SECTIONS: Section[] = [
  { path: '/', label: 'Organization', page: OrganizationPage },
  { path: '/users', label: 'Users', page: UsersPage },
  { path: '/invitations', label: 'Invitations', page: InvitationsPage },
  { path: '/bots', label: 'Bots', page: BotsPage },
  { path: '/integrations', label: 'Integrations', page: IntegrationsPage },
  { path: '/channels', label: 'Channels', page: ChannelsPage },
  { path: '/groups', label: 'User groups', page: GroupsPage },
  { path: '/profile-fields', label: 'Profile fields', page: ProfileFieldsPage },
  { path: '/linkifiers', label: 'Linkifiers', page: LinkifiersPage },
  { path: '/playgrounds', label: 'Code playgrounds', page: PlaygroundsPage },
  { path: '/domains', label: 'Allowed e-mail domains', page: DomainsPage },
  { path: '/emoji', label: 'Custom emoji', page: EmojiPage },
  { path: '/scheduled', label: 'Scheduled messages', page: ScheduledPage },
  { path: '/network', label: 'Network', page: NetworkPage },
  { path: '/backups', label: 'Backups', page: BackupsPage },
  { path: '/zulip', label: 'Move to Zulip Server', page: MoveToZulipPage },
  { path: '/status', label: 'Server status', page: StatusPage },
  { path: '/logs', label: 'Log', page: LogsPage },
];

/** Pages reached from a section rather than from the navigation. */
export const DETAIL_ROUTES: { path: string; section: string; page: ComponentType }[] = [
  { path: '/channels/:id', section: '/channels', page: ChannelPage },
  { path: '/groups/:id', section: '/groups', page: GroupPage },
];
