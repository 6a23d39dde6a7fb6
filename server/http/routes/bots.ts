import { z } from 'zod';
import { createBot } from '../../users/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

export const botRoutes = [
  route({
    method: 'POST',
    path: '/bots',
    params: {
      full_name: p.str(),
      short_name: p.str(),
      bot_type: p.int().default(1),
      payload_url: p.json(z.string()).optional(),
      service_name: p.str().optional(),
      config_data: p.json(z.record(z.string(), z.string())).optional(),
      interface_type: p.int().default(1),
      default_sending_stream: p.str().optional(),
      default_events_register_stream: p.str().optional(),
      default_all_public_streams: p.bool().optional(),
    },
    handler: (ctx, user, params) =>
      createBot(ctx, user, {
        fullName: params.full_name,
        shortName: params.short_name,
        botType: params.bot_type,
        payloadUrl: params.payload_url,
        interfaceType: params.interface_type,
        serviceName: params.service_name,
        configData: params.config_data,
      }),
  }),
];
