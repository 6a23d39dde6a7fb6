import type { AppContext } from '../core/context.js';
import { allProfileValues } from '../db/queries/profile-values.js';
import { allUsers } from '../db/queries/users.js';
import { tableMemo } from '../db/table-memo.js';
import { JsonText, jsonAround } from '../shared/json-fields.js';
import { loadRealm } from '../shared/realm.js';
import {
  canSeeEmailAtVisibility,
  emailVisibility,
  formatUser,
  groupProfileValues,
  type Viewer,
} from './format.js';

/**
 * One user of realm_users serialised once for every viewer: only
 * delivery_email depends on who asks, so the text is kept split around it.
 */
interface SerialisedPerson {
  id: number;
  isActive: boolean;
  /** Bots' addresses are visible to everyone, as if visibility were "everyone". */
  visibility: number;
  before: string;
  deliveryEmail: string;
  after: string;
}

const EVERYONE = 1;

/**
 * Every user as register's realm_users formats them, rebuilt only after a
 * write to what the dict shows: users (names, roles, settings, avatars,
 * activation), the organization (its e-mail domain for hidden addresses) or
 * custom profile fields and values.
 */
const serialisedPeople = tableMemo(
  ['users', 'realm', 'custom_profile_fields', 'custom_profile_field_values'],
  (ctx: AppContext): SerialisedPerson[] => {
    const emailDomain = loadRealm(ctx).row.email_domain;
    const profileValues = groupProfileValues(allProfileValues(ctx.db));
    return allUsers(ctx.db).map((row) => {
      const person = formatUser(row, null, { emailDomain, profileValues });
      // The split into two lists already says it.
      delete person.is_active;
      const [before, after] = jsonAround(person, 'delivery_email');
      return {
        id: row.id,
        isActive: row.is_active === 1,
        visibility: row.is_bot ? EVERYONE : emailVisibility(row),
        before,
        deliveryEmail: JSON.stringify(row.delivery_email),
        after,
      };
    });
  },
);

/** realm_users and realm_non_active_users as `viewer` may see them. */
export function realmUserLists(
  ctx: AppContext,
  viewer: Viewer,
): { active: JsonText; inactive: JsonText } {
  const active: string[] = [];
  const inactive: string[] = [];
  for (const person of serialisedPeople(ctx)) {
    const email = canSeeEmailAtVisibility(viewer, person.id, person.visibility)
      ? person.deliveryEmail
      : 'null';
    (person.isActive ? active : inactive).push(person.before + email + person.after);
  }
  return {
    active: new JsonText(`[${active.join(',')}]`),
    inactive: new JsonText(`[${inactive.join(',')}]`),
  };
}
