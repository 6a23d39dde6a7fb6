/** Every integration Hearth has, by the name in its URL. */
import { alertmanager } from './tools/alertmanager.js';
import { forgejo, gitea } from './tools/gitea.js';
import { github } from './tools/github.js';
import { gitlab } from './tools/gitlab.js';
import { grafana } from './tools/grafana.js';
import { jenkins } from './tools/jenkins.js';
import { json } from './tools/json.js';
import { sentry } from './tools/sentry.js';
import { slackIncoming } from './tools/slack-incoming.js';
import { uptimeKuma } from './tools/uptime-kuma.js';
import type { Integration } from './types.js';

/** In the order the admin page lists them. */
export const INTEGRATIONS: readonly Integration[] = [
  gitea,
  forgejo,
  gitlab,
  github,
  jenkins,
  grafana,
  alertmanager,
  uptimeKuma,
  sentry,
  slackIncoming,
  json,
];

const byName = new Map(INTEGRATIONS.map((integration) => [integration.name, integration]));

export const integrationNamed = (name: string): Integration | undefined => byName.get(name);
