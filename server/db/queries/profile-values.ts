import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface ProfileValueRow {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

export const profileValuesOf = (db: Db, userId: number) =>
  stmt<[number], ProfileValueRow>(
    db,
    'SELECT * FROM custom_profile_field_values WHERE user_id = ? ORDER BY field_id',
  ).all(userId);

export const allProfileValues = (db: Db) =>
  stmt<[], ProfileValueRow>(
    db,
    'SELECT * FROM custom_profile_field_values ORDER BY user_id, field_id',
  ).all();

export const profileValueOf = (db: Db, userId: number, fieldId: number) =>
  stmt<[number, number], ProfileValueRow>(
    db,
    'SELECT * FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?',
  ).get(userId, fieldId);

export const profileValuesOfField = (db: Db, fieldId: number) =>
  stmt<[number], ProfileValueRow>(
    db,
    'SELECT * FROM custom_profile_field_values WHERE field_id = ? ORDER BY user_id',
  ).all(fieldId);

export const writeProfileValue = (db: Db, row: ProfileValueRow) =>
  stmt(
    db,
    `INSERT INTO custom_profile_field_values (user_id, field_id, value, rendered_value)
     VALUES (@user_id, @field_id, @value, @rendered_value)
     ON CONFLICT (user_id, field_id)
     DO UPDATE SET value = excluded.value, rendered_value = excluded.rendered_value`,
  ).run(row);

export const deleteProfileValue = (db: Db, userId: number, fieldId: number) =>
  stmt(db, 'DELETE FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?').run(
    userId,
    fieldId,
  ).changes > 0;
