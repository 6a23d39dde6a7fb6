import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface RealmRow {
  id: number;
  name: string;
  description: string;
  email_domain: string;
  date_created: number;
  deactivated: number;
  settings: string;
  jwt_key: string | null;
  /** JSON overrides of the user-settings defaults new accounts start from. */
  user_settings_defaults: string;
}

export const getRealm = (db: Db) =>
  stmt<[], RealmRow>(db, 'SELECT * FROM realm WHERE id = 1').get();

export const insertRealm = (
  db: Db,
  realm: { name: string; description: string; email_domain: string; date_created: number },
) =>
  stmt(
    db,
    'INSERT INTO realm (id, name, description, email_domain, date_created) VALUES (1, ?, ?, ?, ?)',
  ).run(realm.name, realm.description, realm.email_domain, realm.date_created);

export const setRealmSettings = (db: Db, settingsJson: string) =>
  stmt(db, 'UPDATE realm SET settings = ? WHERE id = 1').run(settingsJson);

export const setRealmDeactivated = (db: Db, deactivated: boolean) =>
  stmt(db, 'UPDATE realm SET deactivated = ? WHERE id = 1').run(deactivated ? 1 : 0);

export const setRealmJwtKey = (db: Db, key: string | null) =>
  stmt(db, 'UPDATE realm SET jwt_key = ? WHERE id = 1').run(key);

export const setRealmName = (db: Db, name: string) =>
  stmt(db, 'UPDATE realm SET name = ? WHERE id = 1').run(name);

export const setRealmDescription = (db: Db, description: string) =>
  stmt(db, 'UPDATE realm SET description = ? WHERE id = 1').run(description);

export const setUserSettingsDefaults = (db: Db, json: string) =>
  stmt(db, 'UPDATE realm SET user_settings_defaults = ? WHERE id = 1').run(json);
