import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** A row of custom_profile_fields; booleans are 0/1. */
export interface ProfileFieldRow {
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

export type NewProfileField = Omit<ProfileFieldRow, 'id' | 'sort_order'>;

export const allProfileFields = (db: Db) =>
  stmt<[], ProfileFieldRow>(
    db,
    'SELECT * FROM custom_profile_fields ORDER BY sort_order, id',
  ).all();

export const profileFieldById = (db: Db, id: number) =>
  stmt<[number], ProfileFieldRow>(db, 'SELECT * FROM custom_profile_fields WHERE id = ?').get(id);

/** Another field with exactly this name (names are unique in the organization). */
export const profileFieldNameTaken = (db: Db, name: string, exceptId: number) =>
  stmt<[string, number], { id: number }>(
    db,
    'SELECT id FROM custom_profile_fields WHERE name = ? AND id != ?',
  ).get(name, exceptId) !== undefined;

export const countSummaryFields = (db: Db, exceptId: number) =>
  stmt<[number], { n: number }>(
    db,
    'SELECT COUNT(*) AS n FROM custom_profile_fields WHERE display_in_profile_summary = 1 AND id != ?',
  ).get(exceptId)!.n;

/** Inserts a field; its order is its id, as in Zulip. */
export function insertProfileField(db: Db, field: NewProfileField): number {
  const { lastInsertRowid } = stmt(
    db,
    `INSERT INTO custom_profile_fields
       (name, hint, field_type, field_data, sort_order, display_in_profile_summary,
        required, editable_by_user, use_for_user_matching)
     VALUES (@name, @hint, @field_type, @field_data, 0, @display_in_profile_summary,
        @required, @editable_by_user, @use_for_user_matching)`,
  ).run(field);
  const id = Number(lastInsertRowid);
  setProfileFieldOrder(db, id, id);
  return id;
}

export const updateProfileField = (db: Db, field: ProfileFieldRow) =>
  stmt(
    db,
    `UPDATE custom_profile_fields SET name = @name, hint = @hint, field_data = @field_data,
       display_in_profile_summary = @display_in_profile_summary, required = @required,
       editable_by_user = @editable_by_user, use_for_user_matching = @use_for_user_matching
     WHERE id = @id`,
  ).run(field);

export const setProfileFieldOrder = (db: Db, id: number, order: number) =>
  stmt(db, 'UPDATE custom_profile_fields SET sort_order = ? WHERE id = ?').run(order, id);

/** Deletes a field and every user's value for it. */
export function deleteProfileField(db: Db, id: number): void {
  stmt(db, 'DELETE FROM custom_profile_field_values WHERE field_id = ?').run(id);
  stmt(db, 'DELETE FROM custom_profile_fields WHERE id = ?').run(id);
}
