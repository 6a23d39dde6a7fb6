import type { AppContext } from '../../core/context.js';
import type { UserRow } from '../../db/queries/users.js';
import {
  changeRealmUserSettingsDefaults,
  changeSettings,
  type RealmDefaultSettingName,
  realmDefaultSettingNames,
  type SettingSpec,
  settingNames,
  settingSpecs,
} from '../../settings/index.js';
import type { UserSettings } from '../../shared/user-settings.js';
import { undescribed, WHY } from '../api-link.js';
import { type Param, type ParsedParams, p } from '../params.js';
import { type RequestInfo, route } from '../route.js';

/** A setting's parameter, by its kind: what the type checker holds to the description. */
type SettingParam<S extends SettingSpec> = S extends { kind: 'bool' }
  ? Param<boolean | undefined, 'boolean', false, never>
  : S extends { kind: 'int' | 'intIn' }
    ? Param<number | undefined, 'integer', false, never>
    : S extends { kind: 'strIn' }
      ? Param<string | undefined, 'enum', false, never>
      : Param<string | undefined, 'string', false, never>;

function settingParam(spec: SettingSpec): SettingParam<SettingSpec> {
  switch (spec.kind) {
    case 'bool':
      return p.bool().optional();
    case 'int':
      return p.int().optional();
    case 'intIn':
      return p.int({ min: spec.min, max: spec.max }).optional();
    case 'strIn':
      return p.oneOf(spec.values).optional();
    case 'str':
      return p.str().optional();
  }
}

type SettingSpecs = typeof settingSpecs;

/** Each setting's parameter; the switch above makes each by the kind its type names. */
const settingParams = Object.fromEntries(
  settingNames.map((name) => [name, settingParam(settingSpecs[name])]),
) as { [N in keyof SettingSpecs]: SettingParam<SettingSpecs[N]> };

const ownSettingParams = {
  full_name: p.str().optional(),
  email: p.str().optional(),
  old_password: p.str().optional(),
  new_password: p.str().optional(),
  timezone: p.str().optional(),
  ...settingParams,
};

function changeOwnSettings(
  ctx: AppContext,
  user: UserRow,
  params: ParsedParams<typeof ownSettingParams>,
  info: RequestInfo,
) {
  const settings: Record<string, unknown> = {};
  for (const name of settingNames) {
    if (params[name] !== undefined) settings[name] = params[name];
  }
  return changeSettings(ctx, user, {
    settings: settings as Partial<UserSettings>,
    timezone: params.timezone,
    fullName: params.full_name,
    email: params.email,
    oldPassword: params.old_password,
    newPassword: params.new_password,
    clientAddress: info.ip,
    // An API key's request has no session to keep, whatever cookies it carries.
    sessionCookie: info.headers.authorization ? undefined : info.cookie,
  });
}

const realmDefaultParams = Object.fromEntries(
  realmDefaultSettingNames.map((name) => [name, settingParams[name]]),
) as Pick<typeof settingParams, RealmDefaultSettingName>;

/**
 * PATCH /settings: the caller's own name, password and personal settings;
 * also at Zulip's legacy /settings/display and /settings/notifications
 * (the Python bindings' update_notification_settings).
 */
export const settingsRoutes = [
  route({
    method: 'PATCH',
    path: '/settings',
    api: '/settings',
    requires: 'human',
    params: ownSettingParams,
    handler: changeOwnSettings,
  }),
  route({
    method: 'PATCH',
    path: '/settings/display',
    api: undescribed(WHY.legacyUrl),
    requires: 'human',
    params: ownSettingParams,
    handler: changeOwnSettings,
  }),
  route({
    method: 'PATCH',
    path: '/settings/notifications',
    api: undescribed(WHY.legacyUrl),
    requires: 'human',
    params: ownSettingParams,
    handler: changeOwnSettings,
  }),
  route({
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    api: '/realm/user_settings_defaults',
    params: realmDefaultParams,
    handler: (ctx, user, params) => {
      const settings: Record<string, unknown> = {};
      for (const name of realmDefaultSettingNames) {
        if (params[name] !== undefined) settings[name] = params[name];
      }
      return changeRealmUserSettingsDefaults(ctx, user, settings as Partial<UserSettings>);
    },
  }),
];
