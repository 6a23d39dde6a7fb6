import { z } from 'zod';
import {
  createUserGroup,
  deactivateUserGroup,
  getUserGroupMembers,
  getUserGroupSubgroups,
  groupSettingChangeSchema,
  groupSettingValueSchema,
  isUserGroupMember,
  listUserGroups,
  updateUserGroup,
  updateUserGroupMembers,
  updateUserGroupSubgroups,
} from '../../groups/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

const ids = () => p.json(z.array(z.int())).optional();
const setting = () => p.json(groupSettingValueSchema).optional();
const settingChange = () => p.json(groupSettingChangeSchema).optional();
const groupId = { user_group_id: p.int() };
/** Zulip's require_member_or_admin, checked before the parameters. */
const memberOrAdmin = ['member', 'human'] as const;

/**
 * /user_groups: list, create, update, members, subgroups, deactivate.
 * Parameters in Zulip's (alphabetical) order, which is the order it checks them.
 */
export const userGroupRoutes = [
  route({
    method: 'GET',
    path: '/user_groups',
    api: '/user_groups',
    requires: memberOrAdmin,
    params: { include_deactivated_groups: p.bool().default(false) },
    handler: (ctx, user, params) => listUserGroups(ctx, user, params.include_deactivated_groups),
  }),
  route({
    method: 'POST',
    path: '/user_groups/create',
    api: '/user_groups/create',
    params: {
      can_add_members_group: setting(),
      can_join_group: setting(),
      can_leave_group: setting(),
      can_manage_group: setting(),
      can_mention_group: setting(),
      can_remove_members_group: setting(),
      description: p.str(),
      members: p.json(z.array(z.int())),
      name: p.str(),
      subgroups: ids(),
    },
    handler: (ctx, user, params) =>
      createUserGroup(ctx, user, {
        name: params.name,
        description: params.description,
        members: params.members,
        subgroups: params.subgroups,
        settings: {
          can_add_members_group: params.can_add_members_group,
          can_join_group: params.can_join_group,
          can_leave_group: params.can_leave_group,
          can_manage_group: params.can_manage_group,
          can_mention_group: params.can_mention_group,
          can_remove_members_group: params.can_remove_members_group,
        },
      }),
  }),
  route({
    method: 'PATCH',
    path: '/user_groups/:user_group_id(^\\d+)',
    api: '/user_groups/{user_group_id}',
    requires: memberOrAdmin,
    params: {
      ...groupId,
      can_add_members_group: settingChange(),
      can_join_group: settingChange(),
      can_leave_group: settingChange(),
      can_manage_group: settingChange(),
      can_mention_group: settingChange(),
      can_remove_members_group: settingChange(),
      deactivated: p.bool().optional(),
      description: p.str().optional(),
      name: p.str().optional(),
    },
    handler: (ctx, user, params) =>
      updateUserGroup(ctx, user, params.user_group_id, {
        name: params.name,
        description: params.description,
        deactivated: params.deactivated,
        settings: {
          can_add_members_group: params.can_add_members_group,
          can_join_group: params.can_join_group,
          can_leave_group: params.can_leave_group,
          can_manage_group: params.can_manage_group,
          can_mention_group: params.can_mention_group,
          can_remove_members_group: params.can_remove_members_group,
        },
      }),
  }),
  route({
    method: 'POST',
    path: '/user_groups/:user_group_id(^\\d+)/members',
    api: '/user_groups/{user_group_id}/members',
    requires: memberOrAdmin,
    params: {
      ...groupId,
      add: ids(),
      add_subgroups: ids(),
      delete: ids(),
      delete_subgroups: ids(),
    },
    handler: (ctx, user, params) =>
      updateUserGroupMembers(ctx, user, params.user_group_id, {
        add: params.add,
        delete: params.delete,
        addSubgroups: params.add_subgroups,
        deleteSubgroups: params.delete_subgroups,
      }),
  }),
  route({
    method: 'GET',
    path: '/user_groups/:user_group_id(^\\d+)/members',
    api: '/user_groups/{user_group_id}/members',
    requires: memberOrAdmin,
    params: { ...groupId, direct_member_only: p.bool().default(false) },
    handler: (ctx, user, params) =>
      getUserGroupMembers(ctx, user, params.user_group_id, params.direct_member_only),
  }),
  route({
    method: 'GET',
    path: '/user_groups/:user_group_id(^\\d+)/members/:user_id(^\\d+)',
    api: '/user_groups/{user_group_id}/members/{user_id}',
    requires: memberOrAdmin,
    params: { ...groupId, user_id: p.int(), direct_member_only: p.bool().default(false) },
    handler: (ctx, user, params) =>
      isUserGroupMember(ctx, user, params.user_group_id, params.user_id, params.direct_member_only),
  }),
  route({
    method: 'POST',
    path: '/user_groups/:user_group_id(^\\d+)/subgroups',
    api: '/user_groups/{user_group_id}/subgroups',
    requires: 'member',
    params: { ...groupId, add: ids(), delete: ids() },
    handler: (ctx, user, params) =>
      updateUserGroupSubgroups(ctx, user, params.user_group_id, {
        add: params.add,
        delete: params.delete,
      }),
  }),
  route({
    method: 'GET',
    path: '/user_groups/:user_group_id(^\\d+)/subgroups',
    api: '/user_groups/{user_group_id}/subgroups',
    requires: memberOrAdmin,
    params: { ...groupId, direct_subgroup_only: p.bool().default(false) },
    handler: (ctx, user, params) =>
      getUserGroupSubgroups(ctx, user, params.user_group_id, params.direct_subgroup_only),
  }),
  route({
    method: 'POST',
    path: '/user_groups/:user_group_id(^\\d+)/deactivate',
    api: '/user_groups/{user_group_id}/deactivate',
    params: groupId,
    handler: (ctx, user, params) => deactivateUserGroup(ctx, user, params.user_group_id),
  }),
];
