import { ApiError, adminRequired, botRequired, ownerRequired } from '../core/errors.js';
import type { Db } from '../db/open.js';
import { stmt } from '../db/prepared.js';
import type { UserRow } from '../db/queries/users.js';

export const Role = {
  owner: 100,
  administrator: 200,
  moderator: 300,
  member: 400,
  guest: 600,
} as const;
export type RoleValue = (typeof Role)[keyof typeof Role];
export const roleValues: readonly number[] = Object.values(Role);

export const BotType = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

/**
 * Zulip's system groups, outermost first. Each contains the next as a
 * subgroup, so "administrators" includes owners, and so on.
 */
export const systemGroups = [
  { name: 'role:internet', description: 'Everyone on the Internet', role: null },
  { name: 'role:everyone', description: 'Everyone including guests', role: Role.guest },
  { name: 'role:members', description: 'Everyone except guests', role: Role.member },
  {
    name: 'role:fullmembers',
    description: 'Members of this organization, not including new accounts and guests',
    role: Role.member,
  },
  {
    name: 'role:moderators',
    description: 'Moderators of this organization, including administrators',
    role: Role.moderator,
  },
  {
    name: 'role:administrators',
    description: 'Administrators of this organization, including owners',
    role: Role.administrator,
  },
  { name: 'role:owners', description: 'Owners of this organization', role: Role.owner },
  { name: 'role:nobody', description: 'Nobody', role: null },
] as const;

export const isAdmin = (user: Pick<UserRow, 'role'>) => user.role <= Role.administrator;
export const isOwner = (user: Pick<UserRow, 'role'>) => user.role === Role.owner;
export const isModerator = (user: Pick<UserRow, 'role'>) => user.role <= Role.moderator;
export const isGuest = (user: Pick<UserRow, 'role'>) => user.role === Role.guest;

export type Requirement = 'admin' | 'owner' | 'bot' | 'human' | 'member';

/** The one place that says who may call an "admin only", "owner only" or "bot only" operation. */
export function requireRole(
  actor: Pick<UserRow, 'role' | 'is_bot'>,
  requirement: Requirement,
): void {
  switch (requirement) {
    case 'admin':
      if (!isAdmin(actor)) throw adminRequired();
      return;
    case 'owner':
      if (!isOwner(actor)) throw ownerRequired();
      return;
    case 'bot':
      if (!actor.is_bot) throw botRequired();
      return;
    case 'human':
      if (actor.is_bot) throw new ApiError('This endpoint does not accept bot requests.');
      return;
    case 'member':
      if (isGuest(actor)) throw new ApiError('Not allowed for guest users');
      return;
  }
}

/** Puts a user into exactly the system groups that their role implies. */
export function syncSystemGroups(db: Db, userId: number, role: number): void {
  stmt(
    db,
    `DELETE FROM user_group_members WHERE user_id = ? AND group_id IN
       (SELECT id FROM user_groups WHERE is_system_group = 1)`,
  ).run(userId);
  const names: string[] = [];
  if (role === Role.owner) names.push('role:owners');
  else if (role === Role.administrator) names.push('role:administrators');
  else if (role === Role.moderator) names.push('role:moderators');
  else if (role === Role.member) names.push('role:members', 'role:fullmembers');
  else if (role === Role.guest) names.push('role:everyone');
  for (const name of names) {
    stmt(
      db,
      'INSERT OR IGNORE INTO user_group_members (group_id, user_id) SELECT id, ? FROM user_groups WHERE name = ?',
    ).run(userId, name);
  }
}
