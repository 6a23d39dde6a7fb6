import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { profileFieldById } from '../db/queries/profile-fields.js';
import {
  deleteProfileValue,
  profileValueOf,
  writeProfileValue,
} from '../db/queries/profile-values.js';
import type { UserRow } from '../db/queries/users.js';
import { renderContent } from '../markdown/index.js';
import { realmUserUpdate } from '../shared/realm-user-update.js';
import { isAdmin, requireRole } from '../shared/roles.js';
import { userIdsWhoCanAccess } from '../user-access/index.js';
import { checkValue, type ProfileValueInput } from './rules.js';
import { FieldType } from './state.js';

/** One entry of `data` (PATCH /users/me/profile_data) or `profile_data` (PATCH /users/{id}). */
export interface ProfileDataItem {
  id: number;
  value: ProfileValueInput;
}

/** A checked entry: the text to store, or null to remove the value. */
export interface CheckedProfileValue {
  fieldId: number;
  fieldType: number;
  value: string | null;
}

/** null, an empty string and an empty list all remove the value. */
const isRemoval = (value: ProfileValueInput) =>
  value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * Zulip's validate_user_custom_profile_data: every field exists, the actor may
 * edit it (administrators always may), every value suits its field's type.
 */
export function checkProfileData(
  ctx: AppContext,
  actor: UserRow,
  data: ProfileDataItem[],
): CheckedProfileValue[] {
  return data.map((item) => {
    const field = profileFieldById(ctx.db, item.id);
    if (!field) throw badRequest(`Field id ${item.id} not found.`);
    if (!isAdmin(actor) && !field.editable_by_user) {
      throw badRequest(
        'You are not allowed to change this field. Contact an administrator to update it.',
      );
    }
    const value = isRemoval(item.value) ? null : checkValue(ctx.db, field, item.value);
    return { fieldId: field.id, fieldType: field.field_type, value };
  });
}

/** The realm_user update one changed value causes, to everyone who sees users. */
export function emitValueChange(
  ctx: AppContext,
  tx: Tx,
  userId: number,
  field: { id: number; value: string | null; rendered_value?: string },
): void {
  tx.emit({
    type: 'realm_user',
    users: userIdsWhoCanAccess(ctx, userId),
    payload: realmUserUpdate(userId, { custom_profile_field: field }),
  });
}

/** Short and long text values are Markdown; clients get their HTML as rendered_value. */
const isRenderable = (fieldType: number) =>
  fieldType === FieldType.SHORT_TEXT || fieldType === FieldType.LONG_TEXT;

/** Writes checked values for `userId` inside the caller's transaction; unchanged ones stay quiet. */
export function writeProfileData(
  ctx: AppContext,
  tx: Tx,
  userId: number,
  values: CheckedProfileValue[],
): void {
  for (const { fieldId, fieldType, value } of values) {
    if (value === null) {
      if (deleteProfileValue(ctx.db, userId, fieldId)) {
        emitValueChange(ctx, tx, userId, { id: fieldId, value: null });
      }
      continue;
    }
    if (profileValueOf(ctx.db, userId, fieldId)?.value === value) continue;
    const rendered = isRenderable(fieldType) ? renderContent(ctx, value) : null;
    writeProfileValue(ctx.db, {
      user_id: userId,
      field_id: fieldId,
      value,
      rendered_value: rendered,
    });
    emitValueChange(ctx, tx, userId, {
      id: fieldId,
      value,
      ...(rendered ? { rendered_value: rendered } : {}),
    });
  }
}

/** PATCH /users/me/profile_data */
export function updateOwnProfileData(
  ctx: AppContext,
  user: UserRow,
  data: ProfileDataItem[],
): Record<string, never> {
  requireRole(user, 'human');
  const values = checkProfileData(ctx, user, data);
  ctx.transaction((tx) => writeProfileData(ctx, tx, user.id, values));
  return {};
}

/**
 * DELETE /users/me/profile_data (Zulip's remove_user_custom_profile_data):
 * removes the caller's values for these fields, with the same checks as
 * setting them; a field without a value is no error.
 */
export function removeOwnProfileData(
  ctx: AppContext,
  user: UserRow,
  fieldIds: number[],
): Record<string, never> {
  requireRole(user, 'human');
  const values = checkProfileData(
    ctx,
    user,
    fieldIds.map((id) => ({ id, value: null })),
  );
  ctx.transaction((tx) => writeProfileData(ctx, tx, user.id, values));
  return {};
}
