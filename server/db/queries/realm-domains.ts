import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface RealmDomainRow {
  id: number;
  domain: string;
  allow_subdomains: number;
}

/** Every allowed domain, in the order they were added. */
export const allRealmDomains = (db: Db) =>
  stmt<[], RealmDomainRow>(
    db,
    'SELECT id, domain, allow_subdomains FROM realm_domains ORDER BY id',
  ).all();

/** Exactly this domain (stored domains are lower case). */
export const realmDomainByName = (db: Db, domain: string) =>
  stmt<[string], RealmDomainRow>(
    db,
    'SELECT id, domain, allow_subdomains FROM realm_domains WHERE domain = ?',
  ).get(domain);

export const insertRealmDomain = (db: Db, domain: string, allowSubdomains: boolean): number =>
  Number(
    stmt(db, 'INSERT INTO realm_domains (domain, allow_subdomains) VALUES (?, ?)').run(
      domain,
      allowSubdomains ? 1 : 0,
    ).lastInsertRowid,
  );

export const setRealmDomainAllowSubdomains = (db: Db, id: number, allowSubdomains: boolean) =>
  stmt(db, 'UPDATE realm_domains SET allow_subdomains = ? WHERE id = ?').run(
    allowSubdomains ? 1 : 0,
    id,
  );

export const deleteRealmDomain = (db: Db, id: number) =>
  stmt(db, 'DELETE FROM realm_domains WHERE id = ?').run(id);

export const countRealmDomains = (db: Db) =>
  stmt<[], { n: number }>(db, 'SELECT count(*) AS n FROM realm_domains').get()!.n;
