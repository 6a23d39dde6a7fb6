import type { AppContext } from '../core/context.js';
import { allProfileFields, type ProfileFieldRow } from '../db/queries/profile-fields.js';
import type { StateProvider } from '../events/state-provider.js';
import type { ProfileField } from '../shared/zulip-api/index.js';

/** Zulip's field types by constant name, as POST /register reports them. */
export const FieldType = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

export const customProfileFieldTypes = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Person picker' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

/** A field as clients read it (Zulip's CustomProfileField.as_dict). */
export type ProfileFieldDict = ProfileField;

/** The two optional flags appear only when true. */
export function formatField(f: ProfileFieldRow): ProfileFieldDict {
  const field: ProfileFieldDict = {
    id: f.id,
    name: f.name,
    type: f.field_type,
    hint: f.hint,
    field_data: f.field_data,
    order: f.sort_order,
    required: f.required === 1,
    editable_by_user: f.editable_by_user === 1,
  };
  if (f.display_in_profile_summary) field.display_in_profile_summary = true;
  if (f.use_for_user_matching) field.use_for_user_matching = true;
  return field;
}

/** Every field of the organization, in display order. */
export const listFields = (ctx: AppContext): ProfileFieldDict[] =>
  allProfileFields(ctx.db).map(formatField);

/** POST /register's `custom_profile_fields` and `custom_profile_field_types`. */
export const customProfileFieldsState: StateProvider = {
  fetchTypes: ['custom_profile_fields'],
  fetch(ctx) {
    return {
      custom_profile_fields: listFields(ctx),
      custom_profile_field_types: customProfileFieldTypes,
    };
  },
};
