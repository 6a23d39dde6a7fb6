import { stmt } from '../db/prepared.js';
import type { StateProvider } from '../events/state-provider.js';

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

interface FieldRow {
  id: number;
  name: string;
  hint: string;
  field_type: number;
  field_data: string;
  sort_order: number;
  display_in_profile_summary: number;
  required: number;
  editable_by_user: number;
  use_for_user_matching: number;
}

export const customProfileFieldsState: StateProvider = {
  fetchTypes: ['custom_profile_fields'],
  fetch(ctx) {
    const rows = stmt<[], FieldRow>(
      ctx.db,
      'SELECT * FROM custom_profile_fields ORDER BY sort_order, id',
    ).all();
    return {
      custom_profile_fields: rows.map((f) => {
        const field: Record<string, unknown> = {
          id: f.id,
          type: f.field_type,
          order: f.sort_order,
          name: f.name,
          hint: f.hint,
          field_data: f.field_data,
          display_in_profile_summary: f.display_in_profile_summary === 1,
          required: f.required === 1,
          editable_by_user: f.editable_by_user === 1,
        };
        if (f.use_for_user_matching) field.use_for_user_matching = true;
        return field;
      }),
      custom_profile_field_types: customProfileFieldTypes,
    };
  },
};
