import {
  changeRealmUserSettingsDefaults,
  changeSettings,
  realmDefaultSettingNames,
  type SettingSpec,
  settingNames,
  settingSpecs,
} from '../../settings/index.js';
import type { UserSettings } from '../../shared/user-settings.js';
import { type Param, p } from '../params.js';
import { route } from '../route.js';

function settingParam(spec: SettingSpec): Param<unknown> {
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

const settingParams = Object.fromEntries(
  settingNames.map((name) => [name, settingParam(settingSpecs[name])]),
) as Record<keyof UserSettings, Param<unknown>>;

/**
 * PATCH /settings: the caller's own name, password and personal settings;
 * also at Zulip's legacy /settings/display and /settings/notifications
 * (the Python bindings' update_notification_settings).
 */
export const settingsRoutes = [
  ...['/settings', '/settings/display', '/settings/notifications'].map((path) =>
    route({
      method: 'PATCH',
      path,
      requires: 'human',
      params: {
        full_name: p.str().optional(),
        email: p.str().optional(),
        old_password: p.str().optional(),
        new_password: p.str().optional(),
        timezone: p.str().optional(),
        ...settingParams,
      },
      handler: (ctx, user, params, info) => {
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
      },
    }),
  ),
  route({
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    params: Object.fromEntries(realmDefaultSettingNames.map((name) => [name, settingParams[name]])),
    handler: (ctx, user, params) => {
      const settings: Record<string, unknown> = {};
      for (const name of realmDefaultSettingNames) {
        if (params[name] !== undefined) settings[name] = params[name];
      }
      return changeRealmUserSettingsDefaults(ctx, user, settings as Partial<UserSettings>);
    },
  }),
];
