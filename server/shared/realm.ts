import type { AppContext } from '../core/context.js';
import { getRealm, type RealmRow } from '../db/queries/realm.js';
import { groupByName } from '../db/queries/user-groups.js';
import { mergeRealmSettings, type RealmSettings } from './realm-settings.js';

export interface Realm {
  row: RealmRow;
  settings: RealmSettings;
}

export function loadRealm(ctx: AppContext): Realm {
  const row = getRealm(ctx.db);
  if (!row) throw new Error('the organization has not been created');
  return { row, settings: mergeRealmSettings(row.settings) };
}

/** Group-setting values on the wire: a group id, or an anonymous group object. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export function resolveGroupSetting(ctx: AppContext, value: unknown): GroupSettingValue {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return groupByName(ctx.db, value)?.id ?? -1;
  return value as GroupSettingValue;
}

/** The URL clients were told to use (zuliprc `site`, realm_url). */
export const realmUrl = (ctx: AppContext) => ctx.config.externalUrl;
