import type { AppContext } from '../core/context.js';
import { getRealm, setRealmDeactivated } from '../db/queries/realm.js';
import { activeUserIds } from '../db/queries/users.js';
import type { EventBody } from '../shared/zulip-api/index.js';

/**
 * Zulip's do_deactivate_realm: the organization stops answering API
 * requests (REALM_DEACTIVATED); users keep their own active state. Clients
 * polling for events get `realm` op `deactivated` first. Returns false when
 * it already was deactivated.
 */
export function deactivateOrganization(ctx: AppContext): boolean {
  const realm = getRealm(ctx.db);
  if (!realm) throw new Error('the organization has not been created');
  if (realm.deactivated) return false;
  ctx.transaction((tx) => {
    setRealmDeactivated(ctx.db, true);
    tx.emit({
      type: 'realm',
      users: activeUserIds(ctx.db),
      payload: {
        type: 'realm',
        op: 'deactivated',
        realm_id: realm.id,
      } satisfies EventBody<'realm', 'deactivated'>,
    });
  });
  return true;
}
