import type { AppContext } from '../core/context.js';
import { allProfileValues } from '../db/queries/profile-values.js';
import { allUsers } from '../db/queries/users.js';
import { tableMemo } from '../db/table-memo.js';
import { JsonText, jsonAround } from '../shared/json-fields.js';
import { loadRealm } from '../shared/realm.js';
import { Role } from '../shared/roles.js';
import type { User } from '../shared/zulip-api/index.js';
import { inaccessibleUserDict } from '../user-access/index.js';
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
  isBot: boolean;
  /** Bots' addresses are visible to everyone, as if visibility were "everyone". */
  visibility: number;
  before: string;
  deliveryEmail: string;
  after: string;
}

const EVERYONE = 1;

/** A list's JSON text, and where each user's entry lies in it. */
interface ListText {
  text: string;
  at: Map<number, { start: number; length: number }>;
}

interface KeptPeople {
  people: SerialisedPerson[];
  byId: Map<number, SerialisedPerson>;
  /** The lists as a kind of viewer sees them (their own entry aside), by role, made on demand. */
  byRole: Map<number, { active: ListText; inactive: ListText }>;
}

/**
 * Every user as register's realm_users formats them, rebuilt only after a
 * write to what the dict shows: users (names, roles, settings, avatars,
 * activation), the organization (its e-mail domain for hidden addresses) or
 * custom profile fields and values.
 */
const keptPeople = tableMemo(
  ['users', 'realm', 'custom_profile_fields', 'custom_profile_field_values'],
  (ctx: AppContext): KeptPeople => {
    const emailDomain = loadRealm(ctx).row.email_domain;
    const profileValues = groupProfileValues(allProfileValues(ctx.db));
    const people = allUsers(ctx.db).map((row): SerialisedPerson => {
      const person: Partial<User> = formatUser(row, null, { emailDomain, profileValues });
      // The split into two lists already says it.
      delete person.is_active;
      const [before, after] = jsonAround(person, 'delivery_email');
      return {
        id: row.id,
        isActive: row.is_active === 1,
        isBot: row.is_bot === 1,
        visibility: row.is_bot ? EVERYONE : emailVisibility(row),
        before,
        deliveryEmail: JSON.stringify(row.delivery_email),
        after,
      };
    });
    return { people, byId: new Map(people.map((p) => [p.id, p])), byRole: new Map() };
  },
);

/** Who may see an address depends on the viewer's role only through these four kinds. */
const kindOfRole = (role: number) =>
  role <= Role.administrator
    ? Role.administrator
    : role <= Role.moderator
      ? Role.moderator
      : role === Role.guest
        ? Role.guest
        : Role.member;

/** No user has id 0: a viewer of the role who is none of the users. */
const anyoneOf = (role: number): Viewer => ({ id: 0, role });

const entryOf = (person: SerialisedPerson, viewer: Viewer) =>
  person.before +
  (canSeeEmailAtVisibility(viewer, person.id, person.visibility) ? person.deliveryEmail : 'null') +
  person.after;

function listText(people: SerialisedPerson[], viewer: Viewer): ListText {
  const at = new Map<number, { start: number; length: number }>();
  const entries: string[] = [];
  let start = 1;
  for (const person of people) {
    const entry = entryOf(person, viewer);
    at.set(person.id, { start, length: entry.length });
    entries.push(entry);
    start += entry.length + 1;
  }
  return { text: `[${entries.join(',')}]`, at };
}

/** `list` with `person`'s entry replaced (slices and concatenation share the text). */
function withEntry(list: ListText, person: SerialisedPerson, entry: string): string {
  const place = list.at.get(person.id)!;
  return list.text.slice(0, place.start) + entry + list.text.slice(place.start + place.length);
}

/** What a guest with limited user access may see (Zulip's get_user_dicts_in_realm). */
export interface LimitedAccess {
  /** Humans the viewer may see (bots always are). */
  accessible: ReadonlySet<number>;
  /** Zulip's user_list_incomplete: leave the others out instead of sending placeholders. */
  omitOthers: boolean;
}

/**
 * A guest's lists when they may not see everyone: the users they may see as
 * usual, then an "Unknown user" entry (active, whatever the user is) for each
 * of the others unless the client said its user list may be incomplete.
 */
function limitedLists(
  ctx: AppContext,
  kept: KeptPeople,
  viewer: Viewer,
  access: LimitedAccess,
): { active: JsonText; inactive: JsonText } {
  const active: string[] = [];
  const inactive: string[] = [];
  const placeholders: string[] = [];
  for (const person of kept.people) {
    if (person.isBot || access.accessible.has(person.id)) {
      (person.isActive ? active : inactive).push(entryOf(person, viewer));
    } else if (!access.omitOthers) {
      placeholders.push(JSON.stringify(inaccessibleUserDict(ctx, person.id)));
    }
  }
  return {
    active: new JsonText(`[${[...active, ...placeholders].join(',')}]`),
    inactive: new JsonText(`[${inactive.join(',')}]`),
  };
}

/**
 * realm_users and realm_non_active_users as `viewer` may see them: the lists
 * of their kind of viewer, with their own entry showing their address; a
 * guest with limited access gets `limitedLists`.
 */
export function realmUserLists(
  ctx: AppContext,
  viewer: Viewer,
  limited?: LimitedAccess,
): { active: JsonText; inactive: JsonText } {
  const kept = keptPeople(ctx);
  if (limited) return limitedLists(ctx, kept, viewer, limited);
  const role = kindOfRole(viewer.role);
  let lists = kept.byRole.get(role);
  if (!lists) {
    const anyone = anyoneOf(role);
    lists = {
      active: listText(
        kept.people.filter((p) => p.isActive),
        anyone,
      ),
      inactive: listText(
        kept.people.filter((p) => !p.isActive),
        anyone,
      ),
    };
    kept.byRole.set(role, lists);
  }
  let active = lists.active.text;
  let inactive = lists.inactive.text;
  const self = kept.byId.get(viewer.id);
  if (self && !canSeeEmailAtVisibility(anyoneOf(role), self.id, self.visibility)) {
    const entry = entryOf(self, viewer);
    if (self.isActive) active = withEntry(lists.active, self, entry);
    else inactive = withEntry(lists.inactive, self, entry);
  }
  return { active: new JsonText(active), inactive: new JsonText(inactive) };
}
