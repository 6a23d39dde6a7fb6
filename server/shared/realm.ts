import type { AppContext, Tx } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import type { Db } from '../db/open.js';
import { getRealm, type RealmRow, setRealmSettings } from '../db/queries/realm.js';
import { groupByName } from '../db/queries/user-groups.js';
import { activeUserIds } from '../db/queries/users.js';
import { tableMemo } from '../db/table-memo.js';
import { mergeRealmSettings, type RealmSettingName, type RealmSettings } from './realm-settings.js';
import type { EventBody } from './zulip-api/index.js';

/** Shared by every reader until the row changes: read-only. */
export interface Realm {
  readonly row: Readonly<RealmRow>;
  readonly settings: RealmSettings;
}

/** Read by most requests, several times by a send; kept until the realm row is written. */
const realmSnapshot = tableMemo(['realm'], ({ db }: AppContext) => {
  const row = getRealm(db);
  return row
    ? Object.freeze({ row: Object.freeze(row), settings: mergeRealmSettings(row.settings) })
    : null;
});

export function loadRealm(ctx: AppContext): Realm {
  const realm = realmSnapshot(ctx);
  // Only the desktop's first run, before its wizard completes, lacks one.
  if (!realm) {
    throw new ApiError('This server has not been set up yet: finish the setup in the Hearth app.', {
      status: 503,
    });
  }
  return realm;
}

/** Group-setting values on the wire: a group id, or an anonymous group object. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/**
 * Ids of the system groups that stored settings name ("role:members"), per
 * database, found as asked: formatting 200 channels asks for them about
 * 2,000 times per POST /register, and every channel message once. Kept until
 * a user group is written or a transaction rolls back (tableMemo), so an id
 * found inside a transaction, as a send's are, is kept too.
 */
const systemGroupIds = tableMemo(['user_groups'], (_: { db: Db }) => new Map<string, number>());

function systemGroupId(db: Db, name: string): number {
  const ids = systemGroupIds({ db });
  const known = ids.get(name);
  if (known !== undefined) return known;
  const id = groupByName(db, name)?.id;
  if (id === undefined) return -1;
  ids.set(name, id);
  return id;
}

export function resolveGroupSetting(ctx: AppContext, value: unknown): GroupSettingValue {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return systemGroupId(ctx.db, value);
  return value as GroupSettingValue;
}

/** Active users' ids, kept until a user row is written. */
const activeIdSet = tableMemo(['users'], ({ db }: AppContext) => new Set(activeUserIds(db)));

/**
 * A realm or user-group setting as clients read it (Zulip's
 * get_group_setting_value_for_api): an anonymous group names only its
 * active members, so deactivating a user changes the value, and
 * reactivating them changes it back (users/anonymous-settings.ts tells
 * clients). Channel settings keep their members as stored (see
 * docs/zulip-exactness.md).
 */
export function apiGroupSettingValue(ctx: AppContext, value: unknown): GroupSettingValue {
  const resolved = resolveGroupSetting(ctx, value);
  if (typeof resolved === 'number') return resolved;
  const active = activeIdSet(ctx);
  return {
    direct_members: resolved.direct_members.filter((id) => active.has(id)),
    direct_subgroups: resolved.direct_subgroups,
  };
}

/** The URL clients were told to use (zuliprc `site`, realm_url). */
export const realmUrl = (ctx: AppContext) => ctx.config.externalUrl;

/**
 * Stores one organization setting that an operation changes as a side effect
 * (Zulip's do_set_realm_property) and tells everyone: a `realm` `update` event.
 */
export function setRealmSetting<K extends RealmSettingName>(
  ctx: AppContext,
  tx: Tx,
  name: K,
  value: RealmSettings[K],
): void {
  const overrides = JSON.parse(loadRealm(ctx).row.settings) as Record<string, unknown>;
  setRealmSettings(ctx.db, JSON.stringify({ ...overrides, [name]: value }));
  tx.emit({
    type: 'realm',
    users: activeUserIds(ctx.db),
    payload: {
      type: 'realm',
      op: 'update',
      property: name,
      value,
    } satisfies EventBody<'realm', 'update'>,
  });
}
