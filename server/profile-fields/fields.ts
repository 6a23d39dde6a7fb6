import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  allProfileFields,
  countSummaryFields,
  deleteProfileField,
  insertProfileField,
  type ProfileFieldRow,
  profileFieldById,
  profileFieldNameTaken,
  setProfileFieldOrder,
  updateProfileField,
} from '../db/queries/profile-fields.js';
import { deleteProfileValue, profileValuesOfField } from '../db/queries/profile-values.js';
import type { UserRow } from '../db/queries/users.js';
import { activeUserIds } from '../db/queries/users.js';
import { payloadOnce } from '../events/hub.js';
import { MAX_PROFILE_SUMMARY_FIELDS } from '../shared/limits.js';
import { requireRole } from '../shared/roles.js';
import type { EventBody, Schemas } from '../shared/zulip-api/index.js';
import {
  checkFieldDataShape,
  checkFieldDefinition,
  DEFAULT_EXTERNAL_ACCOUNTS,
  type FieldData,
  isDefaultExternalField,
} from './rules.js';
import { FieldType, listFields, type ProfileFieldDict } from './state.js';
import { emitValueChange } from './values.js';

export const fieldNotFound = (id: number) => badRequest(`Field id ${id} not found.`);
const nameTaken = () => badRequest('A field with that label already exists.');
const summaryLimitReached = () =>
  badRequest(
    `Only ${MAX_PROFILE_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`,
  );

/** The full field list to everyone, after any change to the fields. */
function emitFields(ctx: AppContext, tx: Tx): void {
  tx.emit({
    type: 'custom_profile_fields',
    users: activeUserIds(ctx.db),
    payload: payloadOnce(
      () =>
        ({
          type: 'custom_profile_fields',
          // The description calls display_in_profile_summary required; Zulip
          // (as Hearth) leaves it out unless true (ProfileField).
          fields: listFields(ctx) as Schemas['CustomProfileField'][],
        }) satisfies EventBody<'custom_profile_fields'>,
    ),
  });
}

/** Fields that store field_data: select and external account. */
const hasFieldData = (fieldType: number) =>
  fieldType === FieldType.SELECT || fieldType === FieldType.EXTERNAL_ACCOUNT;

/** GET /realm/profile_fields: anyone in the organization. */
export function getProfileFields(
  ctx: AppContext,
  _user: UserRow,
): { custom_fields: ProfileFieldDict[] } {
  return { custom_fields: listFields(ctx) };
}

export interface NewFieldInput {
  name?: string;
  hint?: string;
  fieldType: number;
  fieldData?: unknown;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
  useForUserMatching?: boolean;
}

/** POST /realm/profile_fields */
export function createProfileField(
  ctx: AppContext,
  actor: UserRow,
  input: NewFieldInput,
): { id: number } {
  requireRole(actor, 'admin');
  const display = input.displayInProfileSummary ?? false;
  const fieldData: FieldData =
    input.fieldData === undefined ? {} : checkFieldDataShape(input.fieldData);
  if (display && countSummaryFields(ctx.db, 0) >= MAX_PROFILE_SUMMARY_FIELDS) {
    throw summaryLimitReached();
  }
  let name = (input.name ?? '').trim();
  let hint = input.hint ?? '';
  const useForUserMatching = input.useForUserMatching ?? false;
  checkFieldDefinition({
    name,
    hint,
    fieldType: input.fieldType,
    fieldData,
    displayInProfileSummary: display,
    useForUserMatching,
  });
  let storedData = hasFieldData(input.fieldType) ? JSON.stringify(fieldData) : '';
  if (isDefaultExternalField(input.fieldType, fieldData)) {
    const subtype = fieldData.subtype as string;
    const account = DEFAULT_EXTERNAL_ACCOUNTS[subtype]!;
    name = account.name;
    hint = account.hint;
    storedData = JSON.stringify({ subtype });
  }
  if (profileFieldNameTaken(ctx.db, name, 0)) throw nameTaken();
  return ctx.transaction((tx) => {
    const id = insertProfileField(ctx.db, {
      name,
      hint,
      field_type: input.fieldType,
      field_data: storedData,
      display_in_profile_summary: display ? 1 : 0,
      required: input.required ? 1 : 0,
      editable_by_user: (input.editableByUser ?? true) ? 1 : 0,
      use_for_user_matching: useForUserMatching ? 1 : 0,
    });
    emitFields(ctx, tx);
    return { id };
  });
}

export interface FieldChanges {
  name?: string;
  hint?: string;
  fieldData?: unknown;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
  useForUserMatching?: boolean;
}

const parseStoredData = (field: ProfileFieldRow): FieldData =>
  field.field_data === '' ? {} : (JSON.parse(field.field_data) as FieldData);

/** PATCH /realm/profile_fields/{field_id} */
export function updateProfileFieldById(
  ctx: AppContext,
  actor: UserRow,
  fieldId: number,
  changes: FieldChanges,
): Record<string, never> {
  requireRole(actor, 'admin');
  const newData =
    changes.fieldData === undefined ? undefined : checkFieldDataShape(changes.fieldData);
  const field = profileFieldById(ctx.db, fieldId);
  if (!field) throw fieldNotFound(fieldId);
  if (
    changes.displayInProfileSummary &&
    countSummaryFields(ctx.db, field.id) >= MAX_PROFILE_SUMMARY_FIELDS
  ) {
    throw summaryLimitReached();
  }
  const name = changes.name?.trim();
  const oldData = parseStoredData(field);
  if (
    field.field_type === FieldType.EXTERNAL_ACCOUNT &&
    isDefaultExternalField(field.field_type, oldData) &&
    ((name !== undefined && name !== field.name) ||
      (changes.hint !== undefined && changes.hint !== field.hint) ||
      (newData !== undefined && JSON.stringify(newData) !== JSON.stringify(oldData)))
  ) {
    throw badRequest('Default custom field cannot be updated.');
  }
  const next: ProfileFieldRow = {
    ...field,
    name: name ?? field.name,
    hint: changes.hint ?? field.hint,
    field_data:
      hasFieldData(field.field_type) && newData !== undefined
        ? JSON.stringify(newData)
        : field.field_data,
    display_in_profile_summary: flag(
      changes.displayInProfileSummary,
      field.display_in_profile_summary,
    ),
    required: flag(changes.required, field.required),
    editable_by_user: flag(changes.editableByUser, field.editable_by_user),
    use_for_user_matching: flag(changes.useForUserMatching, field.use_for_user_matching),
  };
  checkFieldDefinition({
    name: next.name,
    hint: next.hint,
    fieldType: field.field_type,
    fieldData: newData ?? oldData,
    displayInProfileSummary: next.display_in_profile_summary === 1,
    useForUserMatching: next.use_for_user_matching === 1,
  });
  if (profileFieldNameTaken(ctx.db, next.name, field.id)) throw nameTaken();
  ctx.transaction((tx) => {
    updateProfileField(ctx.db, next);
    if (field.field_type === FieldType.SELECT && newData !== undefined) {
      // Users whose choice went away lose their value.
      for (const row of profileValuesOfField(ctx.db, field.id)) {
        if (!Object.hasOwn(newData, row.value)) {
          deleteProfileValue(ctx.db, row.user_id, field.id);
          emitValueChange(ctx, tx, row.user_id, { id: field.id, value: null });
        }
      }
    }
    emitFields(ctx, tx);
  });
  return {};
}

const flag = (wanted: boolean | undefined, current: number): number =>
  wanted === undefined ? current : wanted ? 1 : 0;

/** DELETE /realm/profile_fields/{field_id}: the field and every value of it. */
export function deleteProfileFieldById(
  ctx: AppContext,
  actor: UserRow,
  fieldId: number,
): Record<string, never> {
  requireRole(actor, 'admin');
  const field = profileFieldById(ctx.db, fieldId);
  if (!field) throw fieldNotFound(fieldId);
  ctx.transaction((tx) => {
    deleteProfileField(ctx.db, field.id);
    emitFields(ctx, tx);
  });
  return {};
}

/** PATCH /realm/profile_fields: `order` lists every field id; a field's order is its index. */
export function reorderProfileFields(
  ctx: AppContext,
  actor: UserRow,
  order: number[],
): Record<string, never> {
  requireRole(actor, 'admin');
  const position = new Map(order.map((id, index) => [id, index]));
  const fields = allProfileFields(ctx.db);
  if (fields.some((f) => !position.has(f.id))) throw badRequest('Invalid order mapping.');
  ctx.transaction((tx) => {
    for (const f of fields) setProfileFieldOrder(ctx.db, f.id, position.get(f.id)!);
    emitFields(ctx, tx);
  });
  return {};
}
