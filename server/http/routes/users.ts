import { z } from 'zod';
import { createAccount } from '../../onboarding/index.js';
import {
  deactivateOwnAccount,
  deactivateUser,
  getOwnUser,
  getUserByEmail,
  getUserById,
  listUsers,
  reactivateUser,
  regenerateOwnApiKey,
  updateUser,
  updateUserByEmail,
} from '../../users/index.js';
import { undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';
import { profileDataSchema } from './profile-fields.js';

const userId = p.int();
const lookupParams = {
  client_gravatar: p.bool().default(true),
  include_custom_profile_fields: p.bool().default(false),
};

export const userRoutes = [
  route({
    method: 'GET',
    path: '/users',
    api: '/users',
    params: { ...lookupParams, user_ids: p.json(z.array(z.int())).optional() },
    handler: (ctx, user, params) =>
      listUsers(ctx, user, {
        includeCustomProfileFields: params.include_custom_profile_fields,
        userIds: params.user_ids,
      }),
  }),
  route({
    method: 'GET',
    path: '/users/me',
    api: '/users/me',
    params: {},
    handler: (ctx, user) => getOwnUser(ctx, user),
  }),
  route({
    method: 'DELETE',
    path: '/users/me',
    api: '/users/me',
    params: {},
    handler: (ctx, user) => deactivateOwnAccount(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/users/me/api_key/regenerate',
    api: undescribed(WHY.undescribed),
    params: {},
    handler: (ctx, user) => regenerateOwnApiKey(ctx, user),
  }),
  route({
    method: 'GET',
    path: '/users/:user_id(^\\d+)',
    api: '/users/{user_id}',
    params: { user_id: userId, ...lookupParams },
    handler: (ctx, user, params) => ({
      user: getUserById(ctx, user, params.user_id, {
        includeCustomProfileFields: params.include_custom_profile_fields,
      }),
    }),
  }),
  route({
    method: 'GET',
    path: '/users/:email',
    api: '/users/{email}',
    params: { email: p.str(), ...lookupParams },
    handler: (ctx, user, params) => ({
      user: getUserByEmail(ctx, user, params.email, {
        includeCustomProfileFields: params.include_custom_profile_fields,
      }),
    }),
  }),
  route({
    method: 'PATCH',
    path: '/users/:email',
    api: '/users/{email}',
    differences: {
      'new_email is not declared': WHY.notYet,
    },
    params: {
      email: p.str(),
      full_name: p.str().optional(),
      role: p.int().optional(),
      profile_data: p.json(profileDataSchema).optional(),
    },
    handler: (ctx, user, params) =>
      updateUserByEmail(ctx, user, params.email, {
        fullName: params.full_name,
        role: params.role,
        profileData: params.profile_data,
      }),
  }),
  route({
    method: 'POST',
    path: '/users',
    api: '/users',
    params: { email: p.str(), password: p.str(), full_name: p.str() },
    handler: async (ctx, user, params) => {
      const created = await createAccount(ctx, user, {
        email: params.email,
        password: params.password,
        fullName: params.full_name,
      });
      return { user_id: created.user_id };
    },
  }),
  route({
    method: 'PATCH',
    path: '/users/:user_id(^\\d+)',
    api: '/users/{user_id}',
    differences: {
      'new_email is not declared': WHY.notYet,
    },
    params: {
      user_id: userId,
      full_name: p.str().optional(),
      role: p.int().optional(),
      profile_data: p.json(profileDataSchema).optional(),
    },
    handler: (ctx, user, params) =>
      updateUser(ctx, user, params.user_id, {
        fullName: params.full_name,
        role: params.role,
        profileData: params.profile_data,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/users/:user_id(^\\d+)',
    api: '/users/{user_id}',
    params: {
      user_id: userId,
      deactivation_notification_comment: p.str({ maxLength: 2000 }).optional(),
    },
    handler: (ctx, user, params) => deactivateUser(ctx, user, params.user_id),
  }),
  route({
    method: 'POST',
    path: '/users/:user_id(^\\d+)/reactivate',
    api: '/users/{user_id}/reactivate',
    params: { user_id: userId },
    handler: (ctx, user, params) => reactivateUser(ctx, user, params.user_id),
  }),
];
