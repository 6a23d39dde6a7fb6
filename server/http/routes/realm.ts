import { z } from 'zod';
import {
  type RealmGroupSetting,
  realmGroupSettings,
  type TimeLimitSetting,
  timeLimitSettings,
  updateRealm,
} from '../../realm/index.js';
import { groupSettingChangeSchema } from '../../shared/group-setting-change.js';
import {
  MAX_REALM_DESCRIPTION_LENGTH,
  MAX_REALM_NAME_LENGTH,
  MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH,
} from '../../shared/limits.js';
import { undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

const timeLimit = () => p.json(z.union([z.int(), z.string()])).optional();
const limitParams = Object.fromEntries(timeLimitSettings.map((name) => [name, timeLimit()])) as {
  [K in TimeLimitSetting]: ReturnType<typeof timeLimit>;
};
const groupChange = () => p.json(groupSettingChangeSchema).optional();
const groupParams = Object.fromEntries(realmGroupSettings.map((name) => [name, groupChange()])) as {
  [K in RealmGroupSetting]: ReturnType<typeof groupChange>;
};

export const realmRoutes = [
  route({
    method: 'PATCH',
    path: '/realm',
    api: undescribed(WHY.undescribed),
    requires: 'admin',
    params: {
      name: p.str({ maxLength: MAX_REALM_NAME_LENGTH }).optional(),
      description: p.str({ maxLength: MAX_REALM_DESCRIPTION_LENGTH }).optional(),
      allow_message_editing: p.bool().optional(),
      allow_edit_history: p.bool().optional(),
      message_edit_history_visibility_policy: p.oneOf(['all', 'moves', 'none'] as const).optional(),
      mandatory_topics: p.bool().optional(),
      topics_policy: p.oneOf(['allow_empty_topic', 'disable_empty_topic'] as const).optional(),
      emails_restricted_to_domains: p.bool().optional(),
      enable_read_receipts: p.bool().optional(),
      welcome_message_custom_text: p
        .str({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH })
        .optional(),
      waiting_period_threshold: p.int({ min: 0 }).optional(),
      moderation_request_channel_id: p.int({ min: -1 }).optional(),
      ...limitParams,
      ...groupParams,
    },
    handler: (ctx, user, params) =>
      updateRealm(ctx, user, {
        ...params,
        limits: Object.fromEntries(timeLimitSettings.map((name) => [name, params[name]])),
        groups: Object.fromEntries(realmGroupSettings.map((name) => [name, params[name]])),
      }),
  }),
];
