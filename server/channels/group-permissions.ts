import type { AppContext } from '../core/context.js';
import { checkGroupSettingValue, type GroupSettingInput } from '../shared/group-setting-change.js';
import type { StoredGroupSetting } from '../shared/group-settings.js';
import type { ChannelPermission } from './rules.js';

export {
  type GroupSettingChange,
  type GroupSettingInput,
  groupSettingChangeSchema,
  groupSettingValueSchema,
  normalizeGroupSetting,
  sameGroupSetting,
  settingMismatch,
} from '../shared/group-setting-change.js';

/** Zulip's allow_everyone_group=False: these would let guests manage the channel. */
const everyoneRefused = new Set<ChannelPermission>([
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_remove_subscribers_group',
  'can_subscribe_group',
]);

/** A channel's group setting, checked as Zulip's access_user_group_for_setting does. */
export function checkChannelGroupSetting(
  ctx: AppContext,
  setting: ChannelPermission,
  input: GroupSettingInput,
): StoredGroupSetting {
  return checkGroupSettingValue(ctx, setting, input, {
    allowEverybody: !everyoneRefused.has(setting),
  });
}
