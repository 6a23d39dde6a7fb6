import { z } from 'zod';
import {
  createProfileField,
  deleteProfileFieldById,
  getProfileFields,
  removeOwnProfileData,
  reorderProfileFields,
  updateOwnProfileData,
  updateProfileFieldById,
} from '../../profile-fields/index.js';
import { undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** The shape of `data` / `profile_data`: field ids with a string, user ids or null. */
export const profileDataSchema = z.array(
  z.strictObject({
    id: z.int(),
    value: z.union([z.string(), z.array(z.int()), z.null()]),
  }),
);

// field_data's shape is checked by the area, with Zulip's wording. In Zulip's
// order (its views list them alphabetically), field_type between field_data and hint.
const settingParams = {
  display_in_profile_summary: p.bool().optional(),
  editable_by_user: p.bool().optional(),
  field_data: p.json(z.unknown()).optional(),
};
const textParams = {
  hint: p.str().optional(),
  name: p.str().optional(),
  required: p.bool().optional(),
  use_for_user_matching: p.bool().optional(),
};
const fieldParams = { ...settingParams, ...textParams };

const fieldInput = (params: {
  name?: string;
  hint?: string;
  field_data?: unknown;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
  use_for_user_matching?: boolean;
}) => ({
  name: params.name,
  hint: params.hint,
  fieldData: params.field_data,
  displayInProfileSummary: params.display_in_profile_summary,
  required: params.required,
  editableByUser: params.editable_by_user,
  useForUserMatching: params.use_for_user_matching,
});

/** /realm/profile_fields and /users/me/profile_data (PATCH sets values, DELETE removes them) */
export const profileFieldRoutes = [
  route({
    method: 'GET',
    path: '/realm/profile_fields',
    api: '/realm/profile_fields',
    params: {},
    handler: (ctx, user) => getProfileFields(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/realm/profile_fields',
    api: '/realm/profile_fields',
    requires: 'admin',
    params: { ...settingParams, field_type: p.int(), ...textParams },
    handler: (ctx, user, params) =>
      createProfileField(ctx, user, { ...fieldInput(params), fieldType: params.field_type }),
  }),
  route({
    method: 'PATCH',
    path: '/realm/profile_fields',
    api: '/realm/profile_fields',
    requires: 'admin',
    params: { order: p.json(z.array(z.int())) },
    handler: (ctx, user, params) => reorderProfileFields(ctx, user, params.order),
  }),
  route({
    method: 'PATCH',
    path: '/realm/profile_fields/:field_id(^\\d+)',
    api: undescribed(WHY.undescribed),
    requires: 'admin',
    params: { field_id: p.int(), ...fieldParams },
    handler: (ctx, user, params) =>
      updateProfileFieldById(ctx, user, params.field_id, fieldInput(params)),
  }),
  route({
    method: 'DELETE',
    path: '/realm/profile_fields/:field_id(^\\d+)',
    api: undescribed(WHY.undescribed),
    requires: 'admin',
    params: { field_id: p.int() },
    handler: (ctx, user, params) => deleteProfileFieldById(ctx, user, params.field_id),
  }),
  route({
    method: 'PATCH',
    path: '/users/me/profile_data',
    api: undescribed(WHY.undescribed),
    requires: 'human',
    params: { data: p.json(profileDataSchema) },
    handler: (ctx, user, params) => updateOwnProfileData(ctx, user, params.data),
  }),
  route({
    method: 'DELETE',
    path: '/users/me/profile_data',
    api: undescribed(WHY.undescribed),
    requires: 'human',
    params: { data: p.json(z.array(z.int())) },
    handler: (ctx, user, params) => removeOwnProfileData(ctx, user, params.data),
  }),
];
