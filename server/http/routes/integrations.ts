import { z } from 'zod';
import { receiveWebhook } from '../../integrations/index.js';
import { MAX_WEBHOOK_BODY_BYTES } from '../../shared/limits.js';
import { outsideApi, WHY } from '../api-link.js';
import { p } from '../params.js';
import { webhookRoute } from '../route.js';

const eventList = z.array(z.string());

export const integrationRoutes = [
  webhookRoute({
    method: 'POST',
    path: '/external/:integration',
    api: outsideApi(WHY.integration),
    auth: 'webhook',
    rawBody: true,
    bodyLimit: MAX_WEBHOOK_BODY_BYTES,
    allowIncomingWebhooks: true,
    params: {
      integration: p.str(),
      // Read by the door's authentication; declared so it is not reported as ignored.
      api_key: p.str().optional(),
      stream: p.str().optional(),
      topic: p.str().optional(),
      only_events: p.json(eventList).optional(),
      exclude_events: p.json(eventList).optional(),
      branches: p.str().optional(),
      ignore_private_repositories: p.bool().default(false),
      name: p.str().optional(),
      desc: p.str().optional(),
    },
    handler: (ctx, bot, params, request) =>
      receiveWebhook(ctx, bot, {
        integration: params.integration,
        headers: request.headers,
        body: request.rawBody,
        target: { stream: params.stream, topic: params.topic },
        filters: { onlyEvents: params.only_events, excludeEvents: params.exclude_events },
        options: {
          branches: params.branches,
          ignorePrivateRepositories: params.ignore_private_repositories,
          topicLabel: params.name,
          descriptionLabel: params.desc,
        },
      }),
  }),
];
