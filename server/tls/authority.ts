/**
 * The installation's certificate authority and the server certificate it
 * issues, kept in `<data dir>/tls/`:
 *
 * - `ca.crt`, `ca.key` (0600): made on the first start that serves HTTPS,
 *   valid 10 years, name-constrained (names.ts). Devices install ca.crt once.
 *   A damaged authority is never replaced silently (DamagedAuthorityError).
 * - `server.crt`, `server.key` (0600): valid at most 398 days (what Apple,
 *   Chrome and Android accept) and issued again when fewer than 30 days
 *   remain, or when the server is reached at a name it does not carry. A
 *   damaged one is simply issued again: no device trusts it directly.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../core/context.js';
import { DamagedAuthorityError } from './errors.js';
import { authorityScope, type CertificateNames, coversNames } from './names.js';

export const TLS_DIR = 'tls';
export const CA_CERT_FILE = 'ca.crt';
export const CA_KEY_FILE = 'ca.key';
export const SERVER_CERT_FILE = 'server.crt';
export const SERVER_KEY_FILE = 'server.key';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long the authority lasts; devices trust it until then. */
export const AUTHORITY_VALIDITY_MS = 3650 * DAY_MS;
/** At most 398 days in all (the limit phones and browsers enforce), backdated an hour. */
export const SERVER_CERT_VALIDITY_MS = 397 * DAY_MS;
const BACKDATE_MS = 60 * 60 * 1000;
/** A server certificate with less than this left is issued again. */
export const RENEW_BEFORE_MS = 30 * DAY_MS;

/** The authority as loaded: its PEM, parsed certificate and what it may vouch for. */
export interface Authority {
  certPem: string;
  keyPem: string;
  cert: X509Certificate;
  /** What its NameConstraints permit (null: none, e.g. an older or hand-made one). */
  scope: CertificateNames | null;
}

/** The server certificate in use. */
export interface ServerCertificate {
  certPem: string;
  keyPem: string;
  cert: X509Certificate;
  names: CertificateNames;
}

/** The library is loaded only by servers that speak TLS. */
const x509 = () => import('./x509.js');

export const tlsFolder = (dataDir: string) => path.join(dataDir, TLS_DIR);

/** Writes a file whole or not at all; keys are owner-only from the first byte. */
function writeAtomically(file: string, text: string, mode: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, file);
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The authority's files as they are, checked; null when there are none yet.
 * Throws DamagedAuthorityError when one is missing, unreadable, expired or
 * does not fit the other.
 */
function readAuthorityFiles(
  folder: string,
  now: number,
): { certPem: string; keyPem: string; cert: X509Certificate } | null {
  const certFile = path.join(folder, CA_CERT_FILE);
  const keyFile = path.join(folder, CA_KEY_FILE);
  let certPem: string | null;
  let keyPem: string | null;
  try {
    certPem = readText(certFile);
    keyPem = readText(keyFile);
  } catch (err) {
    throw new DamagedAuthorityError(folder, `cannot read it (${(err as Error).message})`);
  }
  if (certPem === null && keyPem === null) return null;
  if (certPem === null) throw new DamagedAuthorityError(folder, `${CA_CERT_FILE} is missing`);
  if (keyPem === null) throw new DamagedAuthorityError(folder, `${CA_KEY_FILE} is missing`);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw new DamagedAuthorityError(folder, `${CA_CERT_FILE} holds no certificate`);
  }
  if (!cert.ca) throw new DamagedAuthorityError(folder, `${CA_CERT_FILE} is no authority`);
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new DamagedAuthorityError(folder, `${CA_KEY_FILE} holds no private key`);
  }
  if (!cert.checkPrivateKey(key)) {
    throw new DamagedAuthorityError(folder, `${CA_KEY_FILE} does not belong to ${CA_CERT_FILE}`);
  }
  const expires = new Date(cert.validTo);
  if (expires.getTime() <= now) {
    throw new DamagedAuthorityError(folder, `it expired on ${expires.toISOString()}`);
  }
  return { certPem, keyPem, cert };
}

/** The data directory's authority, made if there is none (see readAuthorityFiles). */
export async function openAuthority(dataDir: string, now: number, log: Logger): Promise<Authority> {
  const folder = tlsFolder(dataDir);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const found = readAuthorityFiles(folder, now);
  if (!found) return createAuthorityFiles(folder, now, log);
  // Owner-only, whatever a copy or a restore left.
  chmodSync(path.join(folder, CA_KEY_FILE), 0o600);
  return { ...found, scope: (await x509()).permittedNames(found.certPem) };
}

/** Why the data directory's authority cannot be used (DamagedAuthorityError's message), or null. */
export function authorityProblem(dataDir: string, now: number): string | null {
  try {
    readAuthorityFiles(tlsFolder(dataDir), now);
    return null;
  } catch (err) {
    if (err instanceof DamagedAuthorityError) return err.message;
    throw err;
  }
}

/**
 * The owner's choice for a damaged authority: its folder is kept aside as
 * `tls.damaged-<time>` (a copy may still be restored from it) and the next
 * start makes a new authority. Returns where the old one went.
 */
export function setAsideAuthority(dataDir: string, now: number): string {
  const folder = tlsFolder(dataDir);
  const aside = `${folder}.damaged-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  renameSync(folder, aside);
  return aside;
}

async function createAuthorityFiles(folder: string, now: number, log: Logger): Promise<Authority> {
  const { createAuthority, permittedNames } = await x509();
  const scope = authorityScope();
  const created = new Date(now);
  const pair = await createAuthority({
    commonName: `Hearth CA ${scope.dns[0] ?? 'server'} ${created.toISOString().slice(0, 10)}`,
    permitted: scope,
    // A device whose clock is a little behind still accepts it.
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + AUTHORITY_VALIDITY_MS),
  });
  // The key first: a certificate without its key would read as damaged.
  writeAtomically(path.join(folder, CA_KEY_FILE), pair.keyPem, 0o600);
  writeAtomically(path.join(folder, CA_CERT_FILE), pair.certPem, 0o644);
  const cert = new X509Certificate(pair.certPem);
  log.info(
    `Made a certificate authority for this installation (${path.join(folder, CA_CERT_FILE)}, SHA-256 ${cert.fingerprint256}): devices trust the server once they trust it`,
  );
  return { ...pair, cert, scope: permittedNames(pair.certPem) };
}

/** Whether `server` can go on serving `names` at `now` under `authority`. */
function stillGood(
  server: ServerCertificate,
  authority: Authority,
  names: CertificateNames,
  now: number,
): boolean {
  return (
    server.cert.checkIssued(authority.cert) &&
    server.cert.verify(authority.cert.publicKey) &&
    new Date(server.cert.validFrom).getTime() <= now &&
    new Date(server.cert.validTo).getTime() - now > RENEW_BEFORE_MS &&
    coversNames(server.names, names)
  );
}

/** The stored server certificate, or null when missing or unreadable. */
async function readServerCertificate(folder: string): Promise<ServerCertificate | null> {
  const certPem = readText(path.join(folder, SERVER_CERT_FILE));
  const keyPem = readText(path.join(folder, SERVER_KEY_FILE));
  if (certPem === null || keyPem === null) return null;
  try {
    const cert = new X509Certificate(certPem);
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return null;
    return { certPem, keyPem, cert, names: (await x509()).certificateNames(certPem) };
  } catch {
    return null;
  }
}

/** When a server certificate should be issued again (before it expires). */
export const renewalDue = (server: ServerCertificate) =>
  new Date(server.cert.validTo).getTime() - RENEW_BEFORE_MS;

/**
 * A server certificate for `names`: the stored one while it is good
 * (issued by this authority, valid for more than RENEW_BEFORE_MS, naming
 * them all), else a new one, stored.
 */
export async function serverCertificate(
  dataDir: string,
  authority: Authority,
  names: CertificateNames,
  now: number,
  options: { reuse: boolean } = { reuse: true },
): Promise<{ server: ServerCertificate; issued: boolean }> {
  const folder = tlsFolder(dataDir);
  if (options.reuse) {
    const stored = await readServerCertificate(folder);
    if (stored && stillGood(stored, authority, names, now)) {
      return { server: stored, issued: false };
    }
  }
  const { issueServerCertificate, certificateNames } = await x509();
  const pair = await issueServerCertificate({
    authority,
    names,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now - BACKDATE_MS + SERVER_CERT_VALIDITY_MS),
  });
  writeAtomically(path.join(folder, SERVER_KEY_FILE), pair.keyPem, 0o600);
  writeAtomically(path.join(folder, SERVER_CERT_FILE), pair.certPem, 0o644);
  const cert = new X509Certificate(pair.certPem);
  return { server: { ...pair, cert, names: certificateNames(pair.certPem) }, issued: true };
}

/** Whether the data directory holds an authority already (made by an earlier start). */
export const hasAuthority = (dataDir: string) =>
  existsSync(path.join(tlsFolder(dataDir), CA_CERT_FILE));
