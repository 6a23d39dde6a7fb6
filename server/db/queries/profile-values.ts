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
