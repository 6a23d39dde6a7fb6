import { z } from 'zod';
import {
  addBot,
  deactivateBot,
  listOwnBots,
  regenerateBotApiKey,
  updateBot,
} from '../../bots/index.js';
import { undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

const botId = p.int();

export const botRoutes = [
  route({
    method: 'GET',
    path: '/bots',
    api: undescribed(WHY.undescribed),
    params: {},
    handler: (ctx, user) => listOwnBots(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/bots',
    api: undescribed(WHY.undescribed),
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
      addBot(ctx, user, {
        fullName: params.full_name,
        shortName: params.short_name,
        botType: params.bot_type,
        payloadUrl: params.payload_url,
        interfaceType: params.interface_type,
        serviceName: params.service_name,
        configData: params.config_data,
        defaultSendingStream: params.default_sending_stream,
        defaultEventsRegisterStream: params.default_events_register_stream,
        defaultAllPublicStreams: params.default_all_public_streams,
      }),
  }),
  route({
    method: 'PATCH',
    path: '/bots/:bot_id(^\\d+)',
    api: undescribed(WHY.undescribed),
    params: {
      bot_id: botId,
      full_name: p.str().optional(),
      role: p.int().optional(),
      bot_owner_id: p.int().optional(),
      config_data: p.json(z.record(z.string(), z.string())).optional(),
      service_payload_url: p.json(z.string()).optional(),
      service_interface: p.int().default(1),
      default_sending_stream: p.str().optional(),
      default_events_register_stream: p.str().optional(),
      default_all_public_streams: p.bool().optional(),
    },
    handler: (ctx, user, params) =>
      updateBot(ctx, user, params.bot_id, {
        fullName: params.full_name,
        role: params.role,
        botOwnerId: params.bot_owner_id,
        configData: params.config_data,
        servicePayloadUrl: params.service_payload_url,
        serviceInterface: params.service_interface,
        defaultSendingStream: params.default_sending_stream,
        defaultEventsRegisterStream: params.default_events_register_stream,
        defaultAllPublicStreams: params.default_all_public_streams,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/bots/:bot_id(^\\d+)',
    api: undescribed(WHY.undescribed),
    params: { bot_id: botId },
    handler: (ctx, user, params) => deactivateBot(ctx, user, params.bot_id),
  }),
  route({
    method: 'POST',
    path: '/bots/:bot_id(^\\d+)/api_key/regenerate',
    api: undescribed(WHY.undescribed),
    params: { bot_id: botId },
    handler: (ctx, user, params) => regenerateBotApiKey(ctx, user, params.bot_id),
  }),
];
