/** Custom profile fields: the organization's field definitions and each user's values. */
export {
  createProfileField,
  deleteProfileFieldById,
  getProfileFields,
  reorderProfileFields,
  updateProfileFieldById,
} from './fields.js';
export type { ProfileValueInput } from './rules.js';
export { customProfileFieldsState } from './state.js';
export {
  type CheckedProfileValue,
  checkProfileData,
  type ProfileDataItem,
  removeOwnProfileData,
  updateOwnProfileData,
  writeProfileData,
} from './values.js';
