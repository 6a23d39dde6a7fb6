import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface UserGroupRow {
  id: number;
  name: string;
  description: string;
  is_system_group: number;
  deactivated: number;
  date_created: number | null;
  creator_id: number | null;
  permissions: string;
}

export const groupByName = (db: Db, name: string) =>
  stmt<[string], UserGroupRow>(db, 'SELECT * FROM user_groups WHERE name = ?').get(name);

export const groupById = (db: Db, id: number) =>
  stmt<[number], UserGroupRow>(db, 'SELECT * FROM user_groups WHERE id = ?').get(id);

export const allGroups = (db: Db) =>
  stmt<[], UserGroupRow>(db, 'SELECT * FROM user_groups ORDER BY id').all();

export function insertGroup(
  db: Db,
  group: {
    name: string;
    description: string;
    is_system_group: boolean;
    date_created: number | null;
    creator_id: number | null;
  },
): number {
  return Number(
    stmt(
      db,
      'INSERT INTO user_groups (name, description, is_system_group, date_created, creator_id) VALUES (?, ?, ?, ?, ?)',
    ).run(
      group.name,
      group.description,
      group.is_system_group ? 1 : 0,
      group.date_created,
      group.creator_id,
    ).lastInsertRowid,
  );
}

export const addGroupMember = (db: Db, groupId: number, userId: number) =>
  stmt(db, 'INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(
    groupId,
    userId,
  );

export const removeGroupMember = (db: Db, groupId: number, userId: number) =>
  stmt(db, 'DELETE FROM user_group_members WHERE group_id = ? AND user_id = ?').run(
    groupId,
    userId,
  );

export const addSubgroup = (db: Db, groupId: number, subgroupId: number) =>
  stmt(db, 'INSERT OR IGNORE INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)').run(
    groupId,
    subgroupId,
  );

export const directMembers = (db: Db, groupId: number) =>
  stmt<[number], { user_id: number }>(
    db,
    'SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id',
  )
    .all(groupId)
    .map((r) => r.user_id);

export const directSubgroups = (db: Db, groupId: number) =>
  stmt<[number], { subgroup_id: number }>(
    db,
    'SELECT subgroup_id FROM user_group_subgroups WHERE group_id = ? ORDER BY subgroup_id',
  )
    .all(groupId)
    .map((r) => r.subgroup_id);

/** Every user in the group, through nested subgroups. */
export const recursiveMembers = (db: Db, groupId: number) =>
  stmt<[number], { user_id: number }>(
    db,
    `WITH RECURSIVE g(id) AS (
       SELECT ? UNION SELECT subgroup_id FROM user_group_subgroups JOIN g ON group_id = g.id
     )
     SELECT DISTINCT m.user_id FROM user_group_members m JOIN g ON m.group_id = g.id
     ORDER BY m.user_id`,
  )
    .all(groupId)
    .map((r) => r.user_id);

/** Is the user in the group, through nested subgroups? */
export const isRecursiveMember = (db: Db, groupId: number, userId: number) =>
  stmt<[number, number], { x: number }>(
    db,
    `WITH RECURSIVE g(id) AS (
       SELECT ? UNION SELECT subgroup_id FROM user_group_subgroups JOIN g ON group_id = g.id
     )
     SELECT 1 AS x FROM user_group_members m JOIN g ON m.group_id = g.id WHERE m.user_id = ? LIMIT 1`,
  ).get(groupId, userId) !== undefined;

export const setGroupPermissions = (db: Db, id: number, permissions: string) =>
  stmt(db, 'UPDATE user_groups SET permissions = ? WHERE id = ?').run(permissions, id);

export const setGroupName = (db: Db, id: number, name: string) =>
  stmt(db, 'UPDATE user_groups SET name = ? WHERE id = ?').run(name, id);

export const setGroupDescription = (db: Db, id: number, description: string) =>
  stmt(db, 'UPDATE user_groups SET description = ? WHERE id = ?').run(description, id);

export const setGroupDeactivated = (db: Db, id: number, deactivated: boolean) =>
  stmt(db, 'UPDATE user_groups SET deactivated = ? WHERE id = ?').run(deactivated ? 1 : 0, id);

export const removeSubgroup = (db: Db, groupId: number, subgroupId: number) =>
  stmt(db, 'DELETE FROM user_group_subgroups WHERE group_id = ? AND subgroup_id = ?').run(
    groupId,
    subgroupId,
  );

/** Direct members whose accounts are active (deactivated users' memberships are hidden). */
export const activeDirectMembers = (db: Db, groupId: number) =>
  stmt<[number], { user_id: number }>(
    db,
    `SELECT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id
     WHERE m.group_id = ? AND u.is_active = 1 ORDER BY m.user_id`,
  )
    .all(groupId)
    .map((r) => r.user_id);

/** Active users in the group, through nested subgroups. */
export const activeRecursiveMembers = (db: Db, groupId: number) =>
  stmt<[number], { user_id: number }>(
    db,
    `WITH RECURSIVE g(id) AS (
       SELECT ? UNION SELECT subgroup_id FROM user_group_subgroups JOIN g ON group_id = g.id
     )
     SELECT DISTINCT m.user_id FROM user_group_members m JOIN g ON m.group_id = g.id
     JOIN users u ON u.id = m.user_id WHERE u.is_active = 1
     ORDER BY m.user_id`,
  )
    .all(groupId)
    .map((r) => r.user_id);

/** Every group nested below the given one (not the group itself). */
export const recursiveSubgroups = (db: Db, groupId: number) =>
  stmt<[number], { id: number }>(
    db,
    `WITH RECURSIVE g(id) AS (
       SELECT subgroup_id FROM user_group_subgroups WHERE group_id = ?
       UNION SELECT subgroup_id FROM user_group_subgroups JOIN g ON group_id = g.id
     )
     SELECT id FROM g ORDER BY id`,
  )
    .all(groupId)
    .map((r) => r.id);

/** Groups that directly contain the given one. */
export const directSupergroups = (db: Db, subgroupId: number) =>
  stmt<[number], { group_id: number }>(
    db,
    'SELECT group_id FROM user_group_subgroups WHERE subgroup_id = ? ORDER BY group_id',
  )
    .all(subgroupId)
    .map((r) => r.group_id);

/** The groups `userId` is a direct member of, by id (with whether each is deactivated). */
export const directGroupsOf = (db: Db, userId: number) =>
  stmt<[number], { id: number; deactivated: number }>(
    db,
    `SELECT g.id, g.deactivated FROM user_group_members m JOIN user_groups g ON g.id = m.group_id
      WHERE m.user_id = ? ORDER BY g.id`,
  ).all(userId);
